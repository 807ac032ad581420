// migration/books/validate and migration/books/import with a ~32 MB package (issue 13): 2,000 accounts, 20,000
// partners, 20,000 items, 60,000 three-line journal transactions, 20,000 open receivables, 5,000 open payables, 2,000
// fixed assets and 20,000 stock rows, whose sub-ledgers agree with the ledger (no warnings). Each run gets a fresh
// company; validate and then import go through the full HTTP stack of a server process, whose peak RSS (VmHWM of its
// process tree) is read at the end. The baseline, in the same run: a raw COPY of the same rows (from CSV files) into
// tables of the same shape without constraints, indexes or triggers, in one transaction. Prints each run, the medians
// and the ratio import / COPY. Targets: import < 15 s, validate < 8 s, peak server RSS < 1 GB.
// Env: BENCH_RUNS (default 3), DATABASE_URL (else embedded PostgreSQL).
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { benchDatabase, benchTenant, startBenchApi, stopChild } from "./lib.js";

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const LIMIT = 32 * 1024 * 1024;
const N = { accounts: 2000, partners: 20_000, items: 20_000, journal: 60_000, receivables: 20_000, payables: 5_000, assets: 2_000, stock: 20_000 };

const cents = (n: number) => (n / 100).toFixed(2);

/** The package: deterministic, agreeing sub-ledgers; `pad` characters of description per journal transaction. */
function generate(pad: number) {
  const special = [
    ["2410", "asset"],
    ["4430", "liability"],
    ["2040", "asset"],
    ["1230", "asset"],
    ["1237", "asset"],
    ["1240", "asset"],
    ["1247", "asset"],
    ["6206", "expense"],
    ["3010", "equity"],
  ] as const;
  const types = ["asset", "liability", "equity", "income", "expense"] as const;
  const accounts = [
    ...special.map(([code, type]) => ({ code, name: `Sąskaita ${code}`, type })),
    ...Array.from({ length: N.accounts - special.length }, (_, i) => ({
      code: `M${String(i).padStart(4, "0")}`,
      name: `Migruota sąskaita ${i}`,
      type: types[i % 5],
    })),
  ];
  const m = (i: number) => `M${String(i % (N.accounts - special.length)).padStart(4, "0")}`;
  const partners = Array.from({ length: N.partners }, (_, i) => ({
    code: `P${100000 + i}`,
    name: `UAB Partneris ${i}`,
    isCustomer: true,
    isSupplier: i % 4 === 0,
  }));
  const items = Array.from({ length: N.items }, (_, i) => ({
    code: `I${100000 + i}`,
    name: `Prekė ${i}`,
    type: "product" as const,
    unit: "vnt",
    vatRatePercent: "21",
    salePriceExclVat: cents(1000 + (i % 5000)),
    purchasePriceExclVat: cents(700 + (i % 4000)),
  }));
  const text = "x".repeat(pad);
  const day = (i: number) => `2026-0${1 + (i % 6)}-${String(1 + (i % 28)).padStart(2, "0")}`;
  const journal = Array.from({ length: N.journal }, (_, i) => {
    const a = 1000 + ((i * 7919) % 900000);
    const b = Math.floor(a / 3);
    return {
      date: day(i),
      description: `Operacija ${i} ${text}`,
      reference: `DOK-${i}`,
      entries: [
        { accountCode: m(i), debit: cents(a) },
        { accountCode: m(i + 1), credit: cents(b) },
        { accountCode: m(i + 2), credit: cents(a - b) },
      ],
    };
  });
  let receivable = 0;
  const openReceivables = Array.from({ length: N.receivables }, (_, i) => {
    const gross = 12100 + (i % 9000) * 11;
    const outstanding = i % 3 === 0 ? gross : Math.floor(gross / 2);
    receivable += outstanding;
    return {
      partnerCode: `P${100000 + (i % N.partners)}`,
      number: `SF-${i + 1}`,
      issueDate: day(i),
      grossTotal: cents(gross),
      vatTotal: cents(Math.round((gross * 21) / 121)),
      outstanding: cents(outstanding),
    };
  });
  let payable = 0;
  const openPayables = Array.from({ length: N.payables }, (_, i) => {
    const gross = 5000 + (i % 7000) * 13;
    payable += gross;
    return { partnerCode: `P${100000 + ((i * 4) % N.partners)}`, documentNumber: `T-${i}`, documentDate: day(i), grossTotal: cents(gross) };
  });
  const cost = { VAN: 0, PC: 0 };
  const depreciation = { VAN: 0, PC: 0 };
  const fixedAssets = Array.from({ length: N.assets }, (_, i) => {
    const group = i % 2 === 0 ? "VAN" : "PC";
    const c = 100000 + (i % 500) * 997;
    const months = i % 24;
    const acc = Math.floor((c * months) / 60);
    cost[group] += c;
    depreciation[group] += acc;
    return {
      groupCode: group,
      code: `FA-${i}`,
      name: `Turtas ${i}`,
      acquisitionDate: "2024-01-15",
      acquisitionCost: cents(c),
      accumulatedDepreciation: cents(acc),
      depreciatedMonths: months,
      usefulLifeMonths: 60,
    };
  });
  let stockValue = 0;
  const stock = Array.from({ length: N.stock }, (_, i) => {
    const quantity = 1 + (i % 50);
    const unitCost = 250 + (i % 3000);
    stockValue += quantity * unitCost;
    return { itemCode: `I${100000 + i}`, quantity: String(quantity), unitCost: cents(unitCost) };
  });
  const assetsNet = cost.VAN + cost.PC - depreciation.VAN - depreciation.PC;
  const openingBalances = {
    date: "2026-01-01",
    entries: [
      { accountCode: "2410", debit: cents(receivable) },
      { accountCode: "4430", credit: cents(payable) },
      { accountCode: "2040", debit: cents(stockValue) },
      { accountCode: "1230", debit: cents(cost.VAN) },
      { accountCode: "1237", credit: cents(depreciation.VAN) },
      { accountCode: "1240", debit: cents(cost.PC) },
      { accountCode: "1247", credit: cents(depreciation.PC) },
      { accountCode: "3010", credit: cents(receivable - payable + stockValue + assetsNet) },
    ],
  };
  return {
    cutoverDate: "2026-07-01",
    source: "Bench ERP",
    accounts,
    partners,
    items,
    assetGroups: [
      { code: "VAN", name: "Transportas", assetAccountCode: "1230", depreciationAccountCode: "1237", defaultUsefulLifeMonths: 60 },
      { code: "PC", name: "Kompiuteriai", assetAccountCode: "1240", depreciationAccountCode: "1247", defaultUsefulLifeMonths: 36 },
    ],
    openingBalances,
    journal,
    openReceivables,
    openPayables,
    fixedAssets,
    stock,
  };
}

// As close to 32 MB as the padding allows, never above.
let pad = 0;
let body = JSON.stringify(generate(pad));
pad = Math.floor((LIMIT - 4096 - Buffer.byteLength(body)) / N.journal);
const pkg = generate(pad);
body = JSON.stringify(pkg);
const bytes = Buffer.byteLength(body);
if (bytes > LIMIT) throw new Error(`package of ${bytes} bytes is above the limit`);
console.log(`package: ${(bytes / 1024 / 1024).toFixed(2)} MiB (${bytes} bytes)`);

const database = await benchDatabase({ everyCpu: true });
const { db } = database;

/** The CSV files of the baseline, written once: what the import writes, row for row. */
const csvDir = mkdtempSync(join(tmpdir(), "acct-bench-copy-"));
chmodSync(csvDir, 0o755);
const csv = (rows: (string | number | boolean | null)[][]) =>
  `${rows.map((r) => r.map((v) => (v === null ? "" : `"${String(v).replace(/"/g, '""')}"`)).join(",")).join("\n")}\n`;
function writeCsv(companyId: string) {
  const file = (name: string, rows: (string | number | boolean | null)[][]) => {
    writeFileSync(join(csvDir, `${name}.csv`), csv(rows));
    chmodSync(join(csvDir, `${name}.csv`), 0o644);
  };
  file(
    "ledger_accounts",
    pkg.accounts.map((a) => [companyId, a.code, a.name, a.type]),
  );
  file(
    "partners",
    pkg.partners.map((p) => [companyId, p.code, p.name, p.isCustomer, p.isSupplier]),
  );
  file(
    "catalog_items",
    pkg.items.map((i) => [companyId, i.code, i.name, i.type, i.unit, i.vatRatePercent, i.salePriceExclVat, i.purchasePriceExclVat]),
  );
  const ids = pkg.journal.map((_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`);
  file(
    "journal_transactions",
    pkg.journal.map((t, i) => [
      companyId,
      ids[i],
      t.date,
      t.description,
      t.reference,
      "migration",
      t.entries[0].debit!,
      `{${t.entries.map((e) => e.accountCode).join(",")}}`,
    ]),
  );
  file(
    "journal_entries",
    pkg.journal.flatMap((t, i) => t.entries.map((e, j) => [companyId, ids[i], j + 1, t.date, e.accountCode, e.debit ?? "0", e.credit ?? "0"])),
  );
  file(
    "sale_invoices",
    pkg.openReceivables.map((r) => [
      companyId,
      "invoice",
      "issued",
      "SF",
      r.number,
      r.partnerCode,
      r.issueDate,
      r.issueDate,
      "EUR",
      r.grossTotal,
      r.vatTotal,
      r.grossTotal,
      r.outstanding,
    ]),
  );
  file(
    "purchase_invoices",
    pkg.openPayables.map((r) => [
      companyId,
      "invoice",
      "registered",
      r.partnerCode,
      r.documentNumber,
      r.documentDate,
      r.documentDate,
      "EUR",
      "standard",
      r.grossTotal,
      r.grossTotal,
    ]),
  );
  file(
    "fixed_assets",
    pkg.fixedAssets.map((a) => [
      companyId,
      a.code,
      a.name,
      a.groupCode,
      a.acquisitionDate,
      a.acquisitionDate,
      "2024-02-01",
      a.acquisitionCost,
      a.usefulLifeMonths!,
      a.accumulatedDepreciation!,
      a.depreciatedMonths!,
    ]),
  );
  file(
    "stock_layers",
    pkg.stock.map((s) => [companyId, s.itemCode, "2026-07-01", s.quantity, s.quantity, s.unitCost]),
  );
}
const COPY_COLUMNS: Record<string, string> = {
  ledger_accounts: "company_id, code, name, type",
  partners: "company_id, code, name, is_customer, is_supplier",
  catalog_items: "company_id, code, name, type, unit, vat_rate_percent, sale_price_excl_vat, purchase_price_excl_vat",
  journal_transactions: "company_id, id, date, description, reference, document_type, total, account_codes",
  journal_entries: "company_id, transaction_id, line_no, date, account_code, debit, credit",
  sale_invoices:
    "company_id, type, status, series_prefix, number, partner_code, issue_date, due_date, currency, gross_total, vat_total, gross_total_base, outstanding",
  purchase_invoices: "company_id, type, status, partner_code, document_number, document_date, due_date, currency, vat_treatment, gross_total, gross_total_base",
  fixed_assets:
    "company_id, code, name, group_code, acquisition_date, put_into_use_date, depreciation_start_date, acquisition_cost, useful_life_months, accumulated_depreciation, depreciated_months",
  stock_layers: "company_id, item_code, date, quantity, remaining_quantity, unit_cost",
};
for (const table of Object.keys(COPY_COLUMNS)) {
  // The same columns and defaults; no constraints (not even NOT NULL: the baseline copies only the package's columns).
  await db.raw(`create table bench_copy_${table} (like ${table} including defaults)`);
  const required: { column_name: string }[] = (
    await db.raw("select column_name from information_schema.columns where table_name = ? and is_nullable = 'NO'", [`bench_copy_${table}`])
  ).rows;
  for (const { column_name } of required) await db.raw(`alter table bench_copy_${table} alter column "${column_name}" drop not null`);
}
async function copyBaseline(companyId: string): Promise<number> {
  writeCsv(companyId);
  const started = performance.now();
  await db.transaction(async (trx) => {
    for (const [table, columns] of Object.entries(COPY_COLUMNS))
      await trx.raw(`copy bench_copy_${table} (${columns}) from '${join(csvDir, `${table}.csv`)}' (format csv)`);
  });
  return performance.now() - started;
}

/** The peak RSS (VmHWM) of the largest process in the tree under `pid`, in MiB. */
function peakRss(pid: number): number {
  const tree = [pid];
  for (let i = 0; i < tree.length; i++) {
    for (const task of readdirSync(`/proc/${tree[i]}/task`)) {
      const children = readFileSync(`/proc/${tree[i]}/task/${task}/children`, "utf8").trim();
      if (children) tree.push(...children.split(/\s+/).map(Number));
    }
  }
  return Math.max(...tree.map((p) => Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${p}/status`, "utf8"))?.[1] ?? 0) / 1024));
}

const { child: api, url } = await startBenchApi(database.connectionString, { LOG_LEVEL: "warn" });
const call = async (op: "validate" | "import", companyId: string, apiKey: string) => {
  const started = performance.now();
  const res = await fetch(`${url}/v1/migration/books/${op}`, {
    method: "POST",
    headers: { authorization: `Bearer ${apiKey}`, "x-company-id": companyId, "content-type": "application/json" },
    body,
  });
  const result = (await res.json()) as Record<string, any>;
  const ms = performance.now() - started;
  if (res.status !== 200) throw new Error(`${op}: ${res.status} ${JSON.stringify(result).slice(0, 2000)}`);
  return { ms, result };
};

try {
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const figures = { validate: [] as number[], import: [] as number[], copy: [] as number[] };
  console.log(`\nmigration/books/validate and /import through HTTP, ${RUNS} runs, a fresh company each`);
  for (let run = 1; run <= RUNS; run++) {
    const tenant = await benchTenant(db);
    await db("warehouses").insert({ company_id: tenant.companyId, code: "MAIN", name: "Pagrindinis", is_default: true });
    const validated = await call("validate", tenant.companyId, tenant.apiKey);
    const imported = await call("import", tenant.companyId, tenant.apiKey);
    const { dryRun: _v, openingBalances: vo, numberSeries: vs, ...vrest } = validated.result;
    const { dryRun: _i, openingBalances: io, numberSeries: is, ...irest } = imported.result;
    if (JSON.stringify(vrest) !== JSON.stringify(irest) || vo.debitTotal !== io.debitTotal || vs.length !== is.length)
      throw new Error("validate and import disagree");
    if (imported.result.warnings.length) throw new Error(`unexpected warnings ${JSON.stringify(imported.result.warnings)}`);
    const [counts] = (
      await db.raw(
        `select (select count(*) from journal_entries where company_id = :c)::int as entries, (select count(*) from sale_invoices where company_id = :c)::int as invoices,
                (select count(*) from stock_layers where company_id = :c)::int as layers`,
        { c: tenant.companyId },
      )
    ).rows;
    if (counts.entries !== N.journal * 3 + 8 || counts.invoices !== N.receivables || counts.layers !== N.stock)
      throw new Error(`stored rows differ: ${JSON.stringify(counts)}`);
    const copy = await copyBaseline(tenant.companyId);
    figures.validate.push(validated.ms);
    figures.import.push(imported.ms);
    figures.copy.push(copy);
    console.log(
      `run ${run}   validate ${validated.ms.toFixed(0).padStart(6)} ms   import ${imported.ms.toFixed(0).padStart(6)} ms   raw COPY ${copy.toFixed(0).padStart(5)} ms   ratio ${(imported.ms / copy).toFixed(1)}   load ${loadavg()[0].toFixed(2)}`,
    );
  }
  const rss = peakRss(api.pid!);
  console.log(
    `median of ${RUNS}: validate ${median(figures.validate).toFixed(0)} ms, import ${median(figures.import).toFixed(0)} ms, raw COPY ${median(figures.copy).toFixed(0)} ms, ratio import/COPY ${(median(figures.import) / median(figures.copy)).toFixed(1)}`,
  );
  console.log(
    `peak server RSS ${rss.toFixed(0)} MiB; load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}`,
  );
  console.log("targets: import < 15000 ms, validate < 8000 ms, peak server RSS < 1024 MiB");
} finally {
  await stopChild(api);
  await database.close();
  rmSync(csvDir, { recursive: true, force: true });
}
