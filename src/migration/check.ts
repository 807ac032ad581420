// Every check of a historical-books package (issue 13, rules 2–12), shared by validate and import: the package is
// read once, the service's data it refers to is loaded with one set query per kind (context.ts), and every row is
// checked in memory. Every failing row is collected by its JSON path; nothing stops at the first. The outcome is
// either the errors (a package imported before first, then 422 before 409) or the result and the rows to write.
// Pure CPU on plain data (issue 22, item 4): it runs where the package is, in a worker thread for a request body.
import type { CompanyContext } from "../auth/principal.js";
import { Decimal, MAX_MONEY } from "../shared/decimal.js";
import { barcodeProblem, vatCodeProblem } from "../shared/identifiers.js";
import { ApiError, conflict, unprocessable, type FieldErrors } from "../shared/errors.js";
import { depreciationStart } from "../assets/index.js";
import { checkPostingBatch, type PostingEntry } from "../ledger/index.js";
import { saftAccountTypeOf } from "../ledger/index.js";
import type { BooksContext } from "./context.js";
import type {
  BooksPackage,
  BooksResult,
  EarlierImport,
  InvoiceRow,
  MigratedNumberSeries,
  NewAccount,
  NewAsset,
  NewInvoice,
  NewStockRow,
  Writes,
} from "./types.js";
import { compareSubLedgers } from "./warnings.js";

/** At most this many paths go into `fieldErrors` (the envelope's bound); `params.problemCount` counts them all. */
const MAX_LISTED = 100;
/** The service's own numbers: `PREFIX-N` (spec/reference.tsp, SeriesPrefix), N of any length (checked against the bound). */
const SERIES_NUMBER = /^([A-Za-z0-9_/]{1,20})-([1-9][0-9]*)$/;
/** The highest next number a series can show: `nextNumber` is an int32 in the contract (Reference.NumberSeries). */
const MAX_SERIES_NUMBER = 2_147_483_647;
/** What a series prefix can be (spec/reference.tsp, SeriesPrefix). */
const SERIES_PREFIX = /^[A-Za-z0-9_/]{1,20}$/;
/** Any number ending in digits: what precedes them, without one separator at its end. */
const OWN_NUMBER = /^(.*?)[-/. _]?[0-9]+$/s;
/** The prefix of a migrated sale invoice whose number has none a series prefix can hold (`12345`, `A.B-7`). */
export const NO_OWN_PREFIX = "MIGRATED";

/**
 * The series prefix a migrated sale invoice records: `PREFIX` of `PREFIX-N`; otherwise the number's own prefix when
 * it has one — what precedes its trailing digits, without one separator at its end (`INV/2026` of `INV/2026/3`,
 * `2025` of `2025/0042`) — else NO_OWN_PREFIX. Never a series of the service's own (only rule 8 touches series).
 */
export function migratedPrefix(number: string): string {
  const own = SERIES_NUMBER.exec(number)?.[1] ?? OWN_NUMBER.exec(number)?.[1];
  return own !== undefined && SERIES_PREFIX.test(own) ? own : NO_OWN_PREFIX;
}
/** What one item's stock in one warehouse can add up to: the contract's Quantity and Money (src/inventory/operations.ts). */
const MAX_STOCK_QUANTITY = "999999999999.9999";
const MAX_STOCK_VALUE = "999999999999999.99";
const money = (d: Decimal) => d.toFixed(2);
const invoiceRow = (r: NewInvoice): InvoiceRow => ({
  ...r,
  net: money(r.net),
  vat: money(r.vat),
  gross: money(r.gross),
  grossBase: money(r.grossBase),
  paid: money(r.paid),
  outstanding: money(r.outstanding),
});

/**
 * A package is imported once (issue 22, item 2): the same package again (fingerprint.ts) is 409 naming the latest
 * import of it, unless `repeatOf` names exactly that import; `repeatOf` naming no import of this package is 422.
 * Imports of one package form a chain (each repeat names the one before), so a retried repeat is refused as well.
 */
function checkNotImported(pkg: BooksPackage, imports: EarlierImport[]): void {
  const repeated = new Set(imports.flatMap((i) => (i.repeatOf ? [i.repeatOf] : [])));
  const latest = imports.find((i) => !repeated.has(i.id));
  if (pkg.repeatOf !== undefined && !imports.some((i) => i.id === pkg.repeatOf)) {
    throw new ApiError("unprocessable", "`repeatOf` names no import of this package. Nothing was imported.", {
      key: "migration.rows_rejected",
      params: { problemCount: 1 },
      fieldErrors: {
        repeatOf: [`names no import of this package into the company${latest ? ` (its latest import is ${latest.id})` : " (it was never imported)"}`],
      },
    });
  }
  if (latest && pkg.repeatOf !== latest.id) {
    throw conflict(
      `This package was imported into the company on ${latest.importedAt} (import ${latest.id}); nothing was imported again. To import it once more on purpose, send it with "repeatOf": "${latest.id}".`,
      "migration.package_imported",
      { importId: latest.id, importedAt: latest.importedAt, imports: imports.length },
    );
  }
}
const toBase = (amount: Decimal, rate: string) => amount.dividedBy(rate).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);

/** Collects problems by JSON path: every one counted, the first MAX_LISTED paths kept. */
class Problems {
  readonly fields: FieldErrors = {};
  count = 0;
  add(path: string, message: string) {
    this.count++;
    if (this.fields[path]) this.fields[path].push(message);
    else if (Object.keys(this.fields).length < MAX_LISTED) this.fields[path] = [message];
  }
}

/** Reports duplicates of `keyOf` inside a section: each later row names the first. */
function duplicates<T>(rows: readonly T[] | undefined, section: string, field: string, keyOf: (row: T) => string, problems: Problems, what: string) {
  const first = new Map<string, number>();
  rows?.forEach((row, i) => {
    const key = keyOf(row);
    const earlier = first.get(key);
    if (earlier === undefined) first.set(key, i);
    else problems.add(`${section}[${i}].${field}`, `duplicate ${what}: ${section}[${earlier}] has it too`);
  });
}

export interface Plan {
  result: BooksResult;
  writes: Writes;
}

/** What every rule reads and adds to: the package, the company's data it refers to, and the problems found so far. */
interface Checking {
  company: CompanyContext;
  pkg: BooksPackage;
  ctx: BooksContext;
  cutover: string;
  cutoverYear: number;
  /** The opening balances' date (the cut-over date when the package sends none). */
  openingDate: string;
  /** The package's own problems: 422 `migration.rows_rejected`. */
  problems: Problems;
  /** Numbers and codes the service has already: 409 `migration.codes_exist`. */
  taken: Problems;
  fail: (path: string, message: string) => void;
}

type AccountRow = NonNullable<BooksPackage["accounts"]>[number];
/** The package's accounts the company does not have yet, by code. */
type PackageAccounts = Map<string, { index: number; row: AccountRow }>;
/** Every account the package may name after rule 2: the company's and the package's new ones. */
type KnownAccounts = Map<string, { type: string; postable: boolean }>;

/** The chart after rule 2: the accounts known, the ones created, and the check of an account a row posts to. */
interface Chart {
  known: KnownAccounts;
  created: NewAccount[];
  check: (path: string, code: string, type?: string) => void;
}

interface Opening {
  writes: Writes["opening"];
  result: BooksResult["openingBalances"];
}

/** What the rules leave for the result and the writes. */
interface Checked {
  chart: Chart;
  partners: Writes["partners"];
  items: Writes["items"];
  groups: { known: BooksContext["groups"]; created: Writes["assetGroups"] };
  opening: Opening;
  journal: { rows: NonNullable<BooksPackage["journal"]>; writes: Writes["journal"] };
  receivables: NewInvoice[];
  payables: NewInvoice[];
  numberSeries: MigratedNumberSeries[];
  assets: NewAsset[];
  stock: NewStockRow[];
}

/**
 * Checks the package against the company's data (`ctx`, context.ts) and returns what the import would write and
 * answer. Throws 409 `migration.package_imported` first, then 422 (`migration.no_chart`, `migration.no_warehouse`,
 * `migration.rows_rejected`), then 409 (`migration.codes_exist`, `migration.opening_balances_exist`,
 * `migration.period_locked`). The rules run in this order, each adding its problems: the paths listed are the first
 * ones found.
 */
export function checkBooks(company: CompanyContext, pkg: BooksPackage, ctx: BooksContext): Plan {
  const cutover = pkg.cutoverDate;
  const cutoverYear = Number(cutover.slice(0, 4));
  checkNotImported(pkg, ctx.imports);
  const problems = new Problems();
  const c: Checking = {
    company,
    pkg,
    ctx,
    cutover,
    cutoverYear,
    openingDate: pkg.openingBalances?.date ?? cutover,
    problems,
    taken: new Problems(),
    fail: (path, message) => problems.add(path, message),
  };
  checkPrerequisites(pkg, ctx);
  const chart = checkAccounts(c);
  const partners = checkPartners(c);
  const items = checkItems(c);
  const groups = checkAssetGroups(c, chart);
  const opening = checkOpeningBalances(c, chart);
  const journal = checkJournal(c, chart);
  const receivables = checkReceivables(c, partners.known);
  const payables = checkPayables(c, partners.known);
  const numberSeries = raisedSeries(c, receivables.seriesTop);
  const assets = checkFixedAssets(c, groups.known);
  const stock = checkStock(c, items.known);
  refuse(c, journal.rows);
  return planOf(c, {
    chart,
    partners: partners.created,
    items: items.created,
    groups,
    opening,
    journal,
    receivables: receivables.rows,
    payables,
    numberSeries,
    assets,
    stock,
  });
}

/** Prerequisites (spec: "Prerequisites of an import"). */
function checkPrerequisites(pkg: BooksPackage, ctx: BooksContext): void {
  if (ctx.accounts.size === 0 && !pkg.accounts?.length) {
    throw unprocessable(
      "The company has no chart of accounts: apply one (ledger/accounts/apply-template) or send the `accounts` section.",
      "migration.no_chart",
    );
  }
  if (pkg.stock?.length && ctx.warehouses.size === 0) {
    throw unprocessable(
      "Stock is imported into a warehouse, and the company has none: create one first (inventory/warehouses/create).",
      "migration.no_warehouse",
    );
  }
}

/** Rule 2, accounts: new ones are created parents first; existing codes are left as they are. */
function checkAccounts(c: Checking): Chart {
  const { pkg, ctx, fail } = c;
  duplicates(pkg.accounts, "accounts", "code", (a) => a.code, c.problems, "account code");
  const packageAccounts: PackageAccounts = new Map();
  pkg.accounts?.forEach((row, index) => {
    const existing = ctx.accounts.get(row.code);
    // An existing account is left as it is (rule 2): a package that calls it another type would post its figures
    // to an account that means something else than the package says.
    if (existing && existing.type !== row.type) {
      fail(
        `accounts[${index}].type`,
        `account ${row.code} exists with type ${existing.type}; an existing account is left as it is, so the package must give that type (or another code)`,
      );
    }
    if (!existing && !packageAccounts.has(row.code)) packageAccounts.set(row.code, { index, row });
  });
  const namedAsParent = new Set(pkg.accounts?.flatMap((a) => (a.parentCode ? [a.parentCode] : [])) ?? []);
  const known: KnownAccounts = new Map();
  for (const [code, a] of ctx.accounts) known.set(code, { type: a.type, postable: a.is_postable });
  for (const [code, { row }] of packageAccounts) known.set(code, { type: row.type, postable: row.isPostable ?? !namedAsParent.has(code) });
  const created = placeAccounts(c, packageAccounts, known);
  const check = (path: string, code: string, type?: string) => {
    const account = known.get(code);
    if (!account) return fail(path, `account ${code} does not exist`);
    if (!account.postable) return fail(path, `account ${code} is not postable`);
    if (type && account.type !== type) fail(path, `account ${code} is of type ${account.type}; it must be of type ${type}`);
  };
  return { known, created, check };
}

/**
 * The package's new accounts, parents before children, without recursion: from each account not yet seen, walk up
 * its parents while they are new accounts of the package, then place that chain from the top down. Every account
 * joins one chain once, so a child-first chain of 20,000 accounts costs 20,000 steps (no stack depth, no trail copied
 * per level).
 */
function placeAccounts(c: Checking, packageAccounts: PackageAccounts, known: KnownAccounts): NewAccount[] {
  const placed = new Map<string, NewAccount>();
  const seen = new Set<string>();
  for (const start of packageAccounts.keys()) {
    if (seen.has(start)) continue;
    const chain: string[] = [];
    const position = new Map<string, number>();
    let code: string | undefined = start;
    while (code !== undefined && packageAccounts.has(code) && !seen.has(code) && !position.has(code)) {
      position.set(code, chain.length);
      chain.push(code);
      code = packageAccounts.get(code)!.row.parentCode;
    }
    let top = chain.length;
    if (code !== undefined && position.has(code)) {
      // The last account of the chain names one of the chain as its parent: a cycle, reported once, on that account.
      top = position.get(code)!;
      const last = chain[chain.length - 1];
      c.fail(`accounts[${packageAccounts.get(last)!.index}].parentCode`, `the parents form a cycle: ${[...chain.slice(top), code].join(" → ")}`);
    }
    for (const link of chain) seen.add(link);
    for (let k = top - 1; k >= 0; k--) {
      const account = placeAccount(c, chain[k], packageAccounts, known, placed);
      if (account) placed.set(account.code, account);
    }
  }
  return [...placed.values()];
}

/** Checks one new account against its parent (existing, or placed already); undefined when that parent does not exist. */
function placeAccount(
  c: Checking,
  code: string,
  packageAccounts: PackageAccounts,
  known: KnownAccounts,
  placed: Map<string, NewAccount>,
): NewAccount | undefined {
  const { index, row } = packageAccounts.get(code)!;
  const path = `accounts[${index}].parentCode`;
  let inherited: { statementLine: string | null; saftAccountTableId: string | null } = { statementLine: null, saftAccountTableId: null };
  if (row.parentCode) {
    const parent = known.get(row.parentCode);
    if (!parent) return void c.fail(path, `account ${row.parentCode} does not exist`);
    if (parent.type !== row.type) c.fail(path, `account ${row.parentCode} is of type ${parent.type}; an account has its parent's type`);
    if (parent.postable) c.fail(path, `account ${row.parentCode} is postable; a parent account cannot be (send it with isPostable: false)`);
    const fromPackage = placed.get(row.parentCode);
    const existing = c.ctx.accounts.get(row.parentCode);
    if (fromPackage) inherited = { statementLine: fromPackage.statementLine, saftAccountTableId: fromPackage.saftAccountTableId };
    else if (existing) inherited = { statementLine: existing.statement_line, saftAccountTableId: existing.saft_account_table_id };
  }
  return {
    code,
    name: row.name,
    type: row.type,
    parentCode: row.parentCode ?? null,
    isPostable: known.get(code)!.postable,
    ...inherited,
    saftAccountType: saftAccountTypeOf(code, row.type),
  };
}

/** Rule 2, partners: new codes are created; existing ones are left as they are. */
function checkPartners(c: Checking): { known: Set<string>; created: Writes["partners"] } {
  duplicates(c.pkg.partners, "partners", "code", (p) => p.code, c.problems, "partner code");
  const known = new Set(c.ctx.partners);
  const created: Writes["partners"] = [];
  c.pkg.partners?.forEach((p, i) => {
    if (known.has(p.code)) return;
    known.add(p.code);
    if (p.vatCode) {
      const problem = vatCodeProblem(p.vatCode);
      if (problem) c.fail(`partners[${i}].vatCode`, problem);
    }
    created.push({ code: p.code, name: p.name, vatCode: p.vatCode ?? null, isCustomer: p.isCustomer ?? true, isSupplier: p.isSupplier ?? false });
  });
  return { known, created };
}

/** Rule 2, items: new codes are created; existing ones are left as they are. */
function checkItems(c: Checking): { known: BooksContext["items"]; created: Writes["items"] } {
  duplicates(c.pkg.items, "items", "code", (p) => p.code, c.problems, "item code");
  const known = new Map(c.ctx.items);
  const created: Writes["items"] = [];
  c.pkg.items?.forEach((it, i) => {
    if (known.has(it.code)) return;
    known.set(it.code, { type: it.type ?? "product", tracking: "none" });
    if (it.barcode) {
      const problem = barcodeProblem(it.barcode);
      if (problem) c.fail(`items[${i}].barcode`, problem);
    }
    created.push({
      code: it.code,
      name: it.name,
      type: it.type ?? "product",
      unit: it.unit ?? "vnt",
      barcode: it.barcode ?? null,
      vatRatePercent: it.vatRatePercent ?? "21",
      salePrice: it.salePriceExclVat ?? null,
      purchasePrice: it.purchasePriceExclVat ?? null,
    });
  });
  return { known, created };
}

/** Rule 2, asset groups (their accounts as assets/groups/create checks them). */
function checkAssetGroups(c: Checking, chart: Chart): Checked["groups"] {
  duplicates(c.pkg.assetGroups, "assetGroups", "code", (g) => g.code, c.problems, "asset group code");
  const known = new Map(c.ctx.groups);
  const created: Writes["assetGroups"] = [];
  c.pkg.assetGroups?.forEach((g, i) => {
    if (known.has(g.code)) return;
    const expense = g.expenseAccountCode ?? c.ctx.rules.depreciationExpense;
    chart.check(`assetGroups[${i}].assetAccountCode`, g.assetAccountCode, "asset");
    chart.check(`assetGroups[${i}].depreciationAccountCode`, g.depreciationAccountCode, "asset");
    chart.check(`assetGroups[${i}].expenseAccountCode`, expense, "expense");
    if (g.assetAccountCode === g.depreciationAccountCode) c.fail(`assetGroups[${i}].depreciationAccountCode`, "must differ from the cost account");
    known.set(g.code, {
      assetAccountCode: g.assetAccountCode,
      depreciationAccountCode: g.depreciationAccountCode,
      defaultUsefulLifeMonths: g.defaultUsefulLifeMonths,
    });
    created.push({ ...g, expenseAccountCode: expense });
  });
  return { known, created };
}

/** Rules 3 and 4: the opening balances, balanced or balanced by balancingAccountCode. */
function checkOpeningBalances(c: Checking, chart: Chart): Opening {
  const ob = c.pkg.openingBalances;
  if (!ob) return { writes: null, result: null };
  const { cutover, openingDate, fail } = c;
  if (openingDate > cutover) fail("openingBalances.date", `must be on or before the cut-over date ${cutover}`);
  duplicates(ob.entries, "openingBalances.entries", "accountCode", (e) => e.accountCode, c.problems, "account (one row per account)");
  const entries: PostingEntry[] = ob.entries.map((e) => ({ accountCode: e.accountCode, debit: e.debit, credit: e.credit }));
  let debits = new Decimal(0);
  let credits = new Decimal(0);
  ob.entries.forEach((e, i) => {
    if ((e.debit === undefined) === (e.credit === undefined)) fail(`openingBalances.entries[${i}]`, "needs exactly one of debit and credit");
    else if (new Decimal(e.debit ?? e.credit!).isZero()) fail(`openingBalances.entries[${i}].${e.debit !== undefined ? "debit" : "credit"}`, "must be above 0");
    else if (e.debit !== undefined) debits = debits.plus(e.debit);
    else credits = credits.plus(e.credit!);
    chart.check(`openingBalances.entries[${i}].accountCode`, e.accountCode);
  });
  const difference = debits.minus(credits);
  let balancing = new Decimal(0);
  if (!difference.isZero()) {
    if (!ob.balancingAccountCode) {
      fail(
        "openingBalances.entries",
        `do not balance: debits ${money(debits)}, credits ${money(credits)}, difference ${money(difference)}; send balancingAccountCode to post the difference there`,
      );
    } else {
      chart.check("openingBalances.balancingAccountCode", ob.balancingAccountCode);
      balancing = difference.negated();
      entries.push(
        balancing.isPositive()
          ? { accountCode: ob.balancingAccountCode, debit: money(balancing) }
          : { accountCode: ob.balancingAccountCode, credit: money(balancing.abs()) },
      );
    }
  }
  const total = Decimal.max(debits, credits);
  if (total.greaterThan(MAX_MONEY)) fail("openingBalances.entries", `total ${money(total)} exceeds ${MAX_MONEY}, the largest amount one transaction may carry`);
  return {
    writes: { date: openingDate, description: `Opening balances as of ${cutover}, migrated from ${c.pkg.source ?? "another system"}`, entries },
    result: {
      journalTransactionId: null,
      date: openingDate,
      entries: entries.length,
      debitTotal: money(total),
      creditTotal: money(total),
      balancingAmount: money(balancing),
    },
  };
}

/** Rule 5: the historical journal, each transaction balanced on its own, within [openingBalances.date, cutover). */
function checkJournal(c: Checking, chart: Chart): Checked["journal"] {
  const { cutover, openingDate, fail } = c;
  const rows = c.pkg.journal ?? [];
  rows.forEach((t, i) => {
    if (t.date >= cutover) fail(`journal[${i}].date`, `must be before the cut-over date ${cutover}`);
    else if (c.pkg.openingBalances && t.date < openingDate) fail(`journal[${i}].date`, `must be on or after the opening balances' date ${openingDate}`);
  });
  const postable = new Map([...chart.known].map(([code, a]) => [code, a.postable]));
  const { totals } = checkPostingBatch(rows, { accounts: postable, lockedMonths: new Set() }, (i, path, message) => fail(`journal[${i}].${path}`, message));
  const writes: Writes["journal"] = rows.map((t, i) => ({
    date: t.date,
    description: t.description ?? null,
    reference: t.reference ?? null,
    entries: t.entries,
    total: money(totals[i] ?? new Decimal(0)),
  }));
  return { rows, writes };
}

/** What an open receivable and an open payable have in common. */
interface OpenItemRow {
  partnerCode: string;
  grossTotal: string;
  vatTotal?: string;
  outstanding?: string;
  currency?: string;
  fxRate?: string;
  dueDate?: string;
}

/** Rule 7: one open receivable or payable, its totals in its currency and in the base currency (number left to the caller). */
function openItem(
  c: Checking,
  partners: Set<string>,
  section: "openReceivables" | "openPayables",
  i: number,
  row: OpenItemRow,
  date: string,
  dateField: string,
): NewInvoice {
  const { cutover, fail } = c;
  const base = c.company.baseCurrency;
  const path = `${section}[${i}]`;
  if (!partners.has(row.partnerCode)) fail(`${path}.partnerCode`, `partner ${row.partnerCode} does not exist`);
  const gross = new Decimal(row.grossTotal);
  const vat = new Decimal(row.vatTotal ?? "0");
  const outstanding = new Decimal(row.outstanding ?? row.grossTotal);
  if (date >= cutover) fail(`${path}.${dateField}`, `must be before the cut-over date ${cutover}`);
  const due = row.dueDate ?? date;
  if (due < date) fail(`${path}.dueDate`, `must be on or after the ${dateField} ${date}`);
  if (vat.greaterThan(gross)) fail(`${path}.vatTotal`, `is above the gross total ${money(gross)}`);
  if (outstanding.greaterThan(gross)) fail(`${path}.outstanding`, `is above the gross total ${money(gross)}`);
  else if (outstanding.isZero()) fail(`${path}.outstanding`, "must be above 0 (an open item)");
  const currency = row.currency ?? c.company.invoiceCurrency;
  let rate = "1";
  if (currency !== base) {
    if (row.fxRate === undefined) fail(`${path}.fxRate`, `is required: ${currency} is not the base currency ${base} (units of ${currency} per 1 ${base})`);
    else if (new Decimal(row.fxRate).isZero()) fail(`${path}.fxRate`, "must be above 0");
    else rate = row.fxRate;
  } else if (row.fxRate !== undefined && !new Decimal(row.fxRate).equals(1)) {
    // A rate other than 1 for the base currency contradicts the amounts; silently ignoring it would hide that.
    fail(`${path}.fxRate`, `must be 1 or left out: ${currency} is the base currency`);
  }
  // The EUR figure of a tiny rate could exceed what an amount may be.
  if (toBase(gross, rate).greaterThan(MAX_MONEY)) fail(`${path}.fxRate`, `makes the gross total ${toBase(gross, rate).toFixed(2)} ${base}, above ${MAX_MONEY}`);
  return {
    partnerCode: row.partnerCode,
    number: "",
    seriesPrefix: NO_OWN_PREFIX,
    issueDate: date,
    dueDate: due,
    currency,
    rate,
    rateSource: currency === base ? "base" : "override",
    net: gross.minus(vat),
    vat,
    gross,
    grossBase: toBase(gross, rate),
    paid: gross.minus(outstanding),
    outstanding,
  };
}

/** Rule 7, open receivables; with rule 8, the highest number of each series issued in the cut-over year. */
function checkReceivables(c: Checking, partners: Set<string>): { rows: NewInvoice[]; seriesTop: Map<string, number> } {
  const { cutoverYear } = c;
  duplicates(c.pkg.openReceivables, "openReceivables", "number", (r) => r.number, c.problems, "invoice number");
  const seriesTop = new Map<string, number>();
  const rows = (c.pkg.openReceivables ?? []).map((r, i) => {
    const inv = openItem(c, partners, "openReceivables", i, r, r.issueDate, "issueDate");
    inv.number = r.number;
    inv.seriesPrefix = migratedPrefix(r.number);
    if (c.ctx.saleNumbers.has(r.number)) c.taken.add(`openReceivables[${i}].number`, `invoice ${r.number} exists already`);
    const m = SERIES_NUMBER.exec(r.number);
    // Rule 8: PREFIX-N issued in the cut-over year raises that series to N+1; other numbers touch no series.
    if (m && Number(r.issueDate.slice(0, 4)) === cutoverYear) {
      // The number after the highest imported one must still be one a series can show.
      if (Number(m[2]) >= MAX_SERIES_NUMBER)
        c.fail(`openReceivables[${i}].number`, `leaves no next number in series ${m[1]} (numbers go up to ${MAX_SERIES_NUMBER})`);
      else seriesTop.set(m[1], Math.max(seriesTop.get(m[1]) ?? 0, Number(m[2])));
    }
    return inv;
  });
  return { rows, seriesTop };
}

/** Rule 7, open payables: linked to the opening-balance transaction, so only with opening balances. */
function checkPayables(c: Checking, partners: Set<string>): NewInvoice[] {
  if (c.pkg.openPayables?.length && !c.pkg.openingBalances)
    c.fail("openPayables", "requires openingBalances in the same package: registered purchase invoices are linked to the opening-balance transaction (rule 7)");
  duplicates(
    c.pkg.openPayables,
    "openPayables",
    "documentNumber",
    (r) => `${r.partnerCode}\u0000${r.documentNumber}`,
    c.problems,
    "document number of this partner",
  );
  return (c.pkg.openPayables ?? []).map((r, i) => {
    const inv = openItem(c, partners, "openPayables", i, r, r.documentDate, "documentDate");
    inv.number = r.documentNumber;
    if (c.ctx.purchaseNumbers.has(`${r.partnerCode}\u0000${r.documentNumber}`)) {
      c.taken.add(`openPayables[${i}].documentNumber`, `partner ${r.partnerCode}'s document ${r.documentNumber} exists already`);
    }
    return inv;
  });
}

/** Rule 8: each sale-invoice series of the cut-over year the receivables reach, raised past them (never lowered). */
function raisedSeries(c: Checking, seriesTop: Map<string, number>): MigratedNumberSeries[] {
  return [...seriesTop]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([prefix, top]) => {
      const existing = c.ctx.series.get(prefix);
      const next = Math.max(existing?.nextNumber ?? 1, top + 1);
      return {
        id: existing?.id ?? null,
        documentType: "sale_invoice",
        prefix,
        year: c.cutoverYear,
        nextNumber: next,
        nextFormatted: `${prefix}-${next}`,
        created: !existing,
      };
    });
}

/** Rule 9: fixed assets with their depreciation to date. */
function checkFixedAssets(c: Checking, groups: BooksContext["groups"]): NewAsset[] {
  const { cutover, fail } = c;
  duplicates(c.pkg.fixedAssets, "fixedAssets", "code", (a) => a.code, c.problems, "asset code");
  return (c.pkg.fixedAssets ?? []).map((a, i) => {
    const path = `fixedAssets[${i}]`;
    const group = groups.get(a.groupCode);
    if (!group) fail(`${path}.groupCode`, `asset group ${a.groupCode} does not exist`);
    if (c.ctx.assetCodes.has(a.code)) c.taken.add(`${path}.code`, `asset ${a.code} exists already`);
    if (a.acquisitionDate >= cutover) fail(`${path}.acquisitionDate`, `must be before the cut-over date ${cutover}`);
    const cost = new Decimal(a.acquisitionCost);
    const salvage = new Decimal(a.salvageValue ?? "0");
    const accumulated = new Decimal(a.accumulatedDepreciation ?? "0");
    const months = a.depreciatedMonths ?? 0;
    const life = a.usefulLifeMonths ?? group?.defaultUsefulLifeMonths;
    const depreciable = cost.minus(salvage);
    if (cost.isZero()) fail(`${path}.acquisitionCost`, "must be above 0");
    if (salvage.greaterThan(cost)) fail(`${path}.salvageValue`, `is above the acquisition cost ${money(cost)}`);
    else if (accumulated.greaterThan(depreciable))
      fail(`${path}.accumulatedDepreciation`, `is above the depreciable value ${money(depreciable)} (cost − salvage)`);
    else if (life !== undefined && months === life && !accumulated.equals(depreciable)) {
      fail(
        `${path}.accumulatedDepreciation`,
        `must equal the depreciable value ${money(depreciable)} when every month of the useful life (${life}) is depreciated`,
      );
    }
    if (life !== undefined && months > life) fail(`${path}.depreciatedMonths`, `is above the useful life of ${life} months`);
    // As assets/assets/create refuses it (issue 22, defect 13): one month taking the whole remaining value must stay
    // below what one journal transaction may carry.
    else if (life !== undefined && life - months === 1 && depreciable.minus(accumulated).greaterThanOrEqualTo(MAX_MONEY)) {
      fail(`${path}.usefulLifeMonths`, `leaves ${money(depreciable.minus(accumulated))} to one month; a month's depreciation must stay below ${MAX_MONEY}`);
    }
    return {
      code: a.code,
      name: a.name,
      groupCode: a.groupCode,
      acquisitionDate: a.acquisitionDate,
      depreciationStartDate: depreciationStart(a.acquisitionDate),
      cost,
      salvage,
      usefulLifeMonths: life ?? 1,
      accumulated,
      depreciatedMonths: months,
      status: accumulated.equals(depreciable) ? "fully_depreciated" : "active",
    };
  });
}

/** Rule 10: stock into FIFO layers. */
function checkStock(c: Checking, items: BooksContext["items"]): NewStockRow[] {
  const { ctx, fail } = c;
  const serials = new Map<string, number>();
  const stock: NewStockRow[] = (c.pkg.stock ?? []).map((s, i) => {
    const path = `stock[${i}]`;
    const item = items.get(s.itemCode);
    if (!item) fail(`${path}.itemCode`, `item ${s.itemCode} does not exist`);
    else if (item.type !== "product") fail(`${path}.itemCode`, `item ${s.itemCode} is a ${item.type}; only products are stocked`);
    const warehouse = s.warehouseCode === undefined ? ctx.defaultWarehouseId : ctx.warehouses.get(s.warehouseCode);
    if (s.warehouseCode !== undefined && !warehouse) fail(`${path}.warehouseCode`, `warehouse ${s.warehouseCode} does not exist`);
    else if (!warehouse) fail(`${path}.warehouseCode`, "is required: the company has no default warehouse");
    const tracking = item?.tracking ?? "none";
    if (tracking !== "none" && !s.lotNumber) fail(`${path}.lotNumber`, `is required: item ${s.itemCode} is ${tracking}-tracked`);
    // What inventory/stock/receive refuses for such an item (a lot or expiry nothing could ever name again).
    if (item?.type === "product" && tracking === "none" && s.lotNumber !== undefined)
      fail(`${path}.lotNumber`, `item ${s.itemCode} is tracked by neither lot nor serial number: send the row without a lot number`);
    if (item?.type === "product" && tracking === "none" && s.expiryDate !== undefined)
      fail(`${path}.expiryDate`, `item ${s.itemCode} is tracked by neither lot nor serial number: send the row without an expiry date`);
    if (tracking === "serial" && !new Decimal(s.quantity).equals(1))
      fail(`${path}.quantity`, `must be 1: item ${s.itemCode} is serial-tracked (one row per serial number)`);
    if (tracking === "serial" && s.lotNumber) {
      const key = `${s.itemCode}\u0000${s.lotNumber}`;
      if (serials.has(key)) fail(`${path}.lotNumber`, `duplicate serial number: stock[${serials.get(key)}] has it too`);
      else serials.set(key, i);
      // A serial number is in stock at most once in the company (stock_layers_serial_in_stock).
      if (ctx.serialsInStock.has(key)) c.taken.add(`${path}.lotNumber`, `serial number ${s.lotNumber} of item ${s.itemCode} is in stock already`);
    }
    return {
      itemCode: s.itemCode,
      warehouseId: warehouse ?? "",
      quantity: s.quantity,
      unitCost: s.unitCost,
      value: new Decimal(s.quantity).times(s.unitCost).toDecimalPlaces(2, Decimal.ROUND_HALF_UP),
      lotNumber: tracking === "serial" ? null : (s.lotNumber ?? null),
      serialNumber: tracking === "serial" ? (s.lotNumber ?? null) : null,
      expiryDate: s.expiryDate ?? null,
    };
  });
  checkStockBounds(c, stock);
  return stock;
}

/** Rule 10: a row's value, and the rows of one item in one warehouse (its stock balance), within their bounds. */
function checkStockBounds(c: Checking, stock: NewStockRow[]): void {
  const stockValueTooLarge = stock.findIndex((s) => s.value.greaterThan(MAX_MONEY));
  if (stockValueTooLarge >= 0) c.fail(`stock[${stockValueTooLarge}]`, `quantity × unitCost exceeds ${MAX_MONEY}`);
  const perBalance = new Map<string, { quantity: Decimal; value: Decimal; last: number }>();
  stock.forEach((s, i) => {
    const key = `${s.itemCode}\u0000${s.warehouseId}`;
    const total = perBalance.get(key) ?? { quantity: new Decimal(0), value: new Decimal(0), last: i };
    perBalance.set(key, { quantity: total.quantity.plus(s.quantity), value: total.value.plus(s.value), last: i });
  });
  for (const [key, total] of perBalance) {
    if (total.quantity.greaterThan(MAX_STOCK_QUANTITY) || total.value.greaterThan(MAX_STOCK_VALUE)) {
      c.fail(
        `stock[${total.last}]`,
        `the rows of item ${key.split("\u0000")[0]} in one warehouse add up to more than ${MAX_STOCK_QUANTITY} units or ${MAX_STOCK_VALUE} in value`,
      );
    }
  }
}

/** 422 first (the package itself), then 409 (the service's state): the numbers taken, the opening balances, the locked months. */
function refuse(c: Checking, journal: NonNullable<BooksPackage["journal"]>): void {
  const { problems, taken, pkg, ctx } = c;
  if (problems.count) {
    throw new ApiError(
      "unprocessable",
      `The package has ${problems.count} problem(s)${problems.count > MAX_LISTED ? `; the first ${MAX_LISTED} paths are listed` : ""}. Nothing was imported.`,
      {
        key: "migration.rows_rejected",
        params: { problemCount: problems.count },
        fieldErrors: problems.fields,
      },
    );
  }
  if (taken.count) {
    throw new ApiError(
      "conflict",
      `${taken.count} invoice number(s), document number(s), asset code(s) or serial number(s) of the package exist in the service already. Nothing was imported.`,
      {
        key: "migration.codes_exist",
        params: { problemCount: taken.count },
        fieldErrors: taken.fields,
      },
    );
  }
  const ob = pkg.openingBalances;
  if (ob && ctx.openingId) {
    throw conflict("The company has an opening-balance transaction already; there is only one per company (rule 4).", "migration.opening_balances_exist", {
      journalTransactionId: ctx.openingId,
    });
  }
  const months = [
    ...new Set([...(ob ? [c.openingDate] : []), ...journal.map((t) => t.date), ...(pkg.stock?.length ? [c.cutover] : [])].map((d) => d.slice(0, 7))),
  ];
  const locked = months.filter((m) => ctx.lockedMonths.has(m)).sort();
  if (locked.length) {
    throw conflict(
      `The period(s) ${locked.join(", ")} are locked; the opening balances, the history and the stock (dated the cut-over date) must go into open months (rule 6).`,
      "migration.period_locked",
      { months: locked },
    );
  }
}

const sum = (values: Decimal[]) => values.reduce((a, b) => a.plus(b), new Decimal(0));

/** The answer (a dry run's figures) and the rows to write, from a package that passed every rule. */
function planOf(c: Checking, k: Checked): Plan {
  const { pkg, ctx, cutover } = c;
  const { chart, partners, items, groups, opening, journal, receivables, payables, numberSeries, assets, stock } = k;
  const result: BooksResult = {
    dryRun: true,
    cutoverDate: cutover,
    accounts: { created: chart.created.length, existing: (pkg.accounts?.length ?? 0) - chart.created.length },
    partners: { created: partners.length, existing: (pkg.partners?.length ?? 0) - partners.length },
    items: { created: items.length, existing: (pkg.items?.length ?? 0) - items.length },
    assetGroups: { created: groups.created.length, existing: (pkg.assetGroups?.length ?? 0) - groups.created.length },
    openingBalances: opening.result,
    journal: { transactions: journal.rows.length, entries: journal.rows.reduce((n, t) => n + t.entries.length, 0) },
    openReceivables: { created: receivables.length, outstandingTotal: money(sum(receivables.map((r) => toBase(r.outstanding, r.rate)))) },
    openPayables: { created: payables.length, outstandingTotal: money(sum(payables.map((r) => toBase(r.outstanding, r.rate)))) },
    fixedAssets: {
      created: assets.length,
      costTotal: money(sum(assets.map((a) => a.cost))),
      accumulatedDepreciationTotal: money(sum(assets.map((a) => a.accumulated))),
    },
    stock: { movements: stock.length, costTotal: money(sum(stock.map((s) => s.value))) },
    numberSeries,
    warnings: compareSubLedgers(pkg, {
      opening: opening.writes?.entries ?? [],
      journal: journal.rows,
      receivables,
      payables,
      assets,
      stock,
      groups: groups.known,
      rules: ctx.rules,
    }),
  };
  return {
    result,
    writes: {
      accounts: chart.created,
      partners,
      items,
      assetGroups: groups.created,
      opening: opening.writes,
      existingOpeningId: ctx.openingId,
      journal: journal.writes,
      series: numberSeries.map((s) => ({ prefix: s.prefix, year: s.year, nextNumber: s.nextNumber })),
      receivables: receivables.map(invoiceRow),
      payables: payables.map(invoiceRow),
      assets: assets.map((a) => ({ ...a, cost: money(a.cost), salvage: money(a.salvage), accumulated: money(a.accumulated) })),
      stock: stock.map((r) => ({ ...r, value: money(r.value) })),
      notes: `Migrated from ${pkg.source ?? "another system"} (cut-over ${cutover}).`,
      cutoverDate: cutover,
    },
  };
}
