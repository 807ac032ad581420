// The lt-standard chart against the AVNT sample chart (issue 8), as tables: the defaults the product relies on, each
// code the old template got wrong, the Lithuanian essentials, the SAF-T mapping of every account, contra flags and
// statement lines, and the migration that rewrites a company's old template. Every call goes through the SDK and the
// shared world (test/support/world.ts).
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { companiesWithOldTemplate, OLD_TEMPLATE, rewriteChart } from "../../src/db/migrations/20261123000102_lt_chart.js";
import { expectApiError } from "../support/expect.js";
import { startHarness, type Harness } from "../support/harness.js";
import { world, type World } from "../support/world.js";
import type { ListRow, RequestBody } from "../../sdk/typescript/src/index.js";

type Account = ListRow<"ledger_accounts_list">;
type Entries = RequestBody<"ledger_journal_transactions_create">["entries"];

let h: Harness;
let w: World;
let accounts: Map<string, Account>;

beforeAll(async () => {
  h = await startHarness();
  w = await world(h);
  const rows: Account[] = [];
  for await (const a of w.api.paginate(w.api.ledger.accounts.list, { pageSize: 100 })) rows.push(a);
  accounts = new Map(rows.map((a) => [a.code, a]));
});
afterAll(() => h.close());

/** The account of the main company's chart with that code (the test fails on an unknown code). */
const get = (code: string): Account => {
  const account = accounts.get(code);
  if (!account) throw new Error(`no account ${code} in the chart`);
  return account;
};

describe("the defaults the product relies on exist with the right type and postability", () => {
  test.each([
    // The four the spec fixes.
    ["2410", "asset", /Pirkėjų skol/, "Trade receivables"],
    ["4430", "liability", /Skolos tiekėjams/, "Trade payables"],
    ["2040", "asset", /Pirktų prekių, skirtų perparduoti/, "Goods for resale"],
    ["6206", "expense", /nusidėvėjimo/, "Depreciation"],
    // The posting rules' defaults.
    ["2441", "asset", /Gautinas pridėtinės vertės mokestis/, "VAT receivable"],
    ["4492", "liability", /Mokėtinas pridėtinės vertės mokestis/, "VAT payable"],
    ["509", "income", /nuolaidos/, "Sales discounts"],
    ["4420", "liability", /Iš pirkėjų gauti avansai/, "Advances received"],
    ["2080", "asset", /Sumokėti avansai tiekėjams/, "Advances paid"],
    ["6312", "expense", /Kitos bendrosios ir administracinės/, "Other general and administrative"],
    ["63081", "expense", /Neatskaitomo pridėtinės vertės mokesčio/, "Non-deductible VAT"],
    ["1247", "asset", /nusidėvėjimas/, "accumulated depreciation"],
    ["6314", "expense", /Banko/, "Bank charges"],
    ["2710", "asset", /bankuose/, "Bank accounts"],
    ["2720", "asset", /Kasa/, "Cash on hand"],
    ["5000", "income", /Parduotų prekių pajamos/, "Revenue from goods"],
    ["6000", "expense", /Parduotų prekių savikaina/, "Cost of goods sold"],
    ["5803", "income", /Teigiama valiutų kursų/, "Foreign exchange gains"],
    ["6803", "expense", /Neigiama valiutų kursų/, "Foreign exchange losses"],
    ["3411", "equity", /ataskaitinių metų/, "reporting year"],
    ["3421", "equity", /ankstesnių metų/, "previous years"],
    ["999", "equity", /Pradinių likučių tarpinė/, "Opening balance interim"],
  ])("%s is a postable %s account (%s / %s)", (code, type, name, nameEn) => {
    expect(get(code)).toMatchObject({ code, type, isPostable: true });
    expect(get(code).name).toMatch(name);
    expect(get(code).nameEn).toContain(nameEn);
  });
});

describe("the codes the old template got wrong mean what the sample chart says", () => {
  // [code, type, postable, contra, LT name, parent]
  test.each([
    ["1217", "asset", true, true, /Pastatų ir statinių įsigijimo savikainos nusidėvėjimas/, "121"],
    ["1227", "asset", true, true, /Mašinų ir įrangos įsigijimo savikainos nusidėvėjimas/, "122"],
    ["1237", "asset", true, true, /Transporto priemonių įsigijimo savikainos nusidėvėjimas/, "123"],
    ["1247", "asset", true, true, /Kitų įrenginių, prietaisų ir įrankių įsigijimo savikainos nusidėvėjimas/, "124"],
    ["1219", "asset", true, true, /Pastatų ir statinių vertės sumažėjimas/, "121"],
    ["1229", "asset", true, true, /Mašinų ir įrangos vertės sumažėjimas/, "122"],
    ["2441", "asset", true, false, /^Gautinas pridėtinės vertės mokestis$/, "244"],
    ["2443", "asset", true, false, /^Mokesčių permokos$/, "244"],
    ["4480", "liability", true, false, /^Mokėtinas darbo užmokestis$/, "448"],
    ["4481", "liability", true, false, /^Mokėtinas gyventojų pajamų mokestis$/, "448"],
    ["4482", "liability", true, false, /^Mokėtinos socialinio draudimo įmokos$/, "448"],
    ["4490", "liability", true, false, /^Mokėtini dividendai$/, "449"],
    ["3030", "equity", true, true, /Savų akcijų/, "303"],
    ["31", "equity", false, false, /^Akcijų priedai$/, "3"],
    ["310", "equity", true, false, /Akcijų priedai/, "31"],
    ["6209", "expense", true, true, /^Gautos nuolaidos/, "62"],
    ["62", "expense", false, false, /^Pardavimo sąnaudos$/, "6"],
    ["63", "expense", false, false, /^Bendrosios ir administracinės sąnaudos$/, "6"],
    ["64", "expense", false, false, /^Kitos veiklos sąnaudos$/, "6"],
    ["2060", "asset", true, false, /skirto parduoti/, "206"],
    ["2430", "asset", true, false, /Asocijuotųjų įmonių skolų/, "243"],
    ["261", "asset", true, false, /Įmonių grupės įmonių akcijos/, "26"],
    ["2620", "asset", true, false, /nuosavybės vertybiniai popieriai/, "262"],
    ["291", "asset", true, false, /^Ateinančių laikotarpių sąnaudos$/, "29"],
    ["292", "asset", true, false, /^Sukauptos pajamos$/, "29"],
    ["4220", "liability", true, false, /Ilgalaikiai įsipareigojimai pagal paskolų sutartis/, "422"],
    ["4230", "liability", true, false, /Iš pirkėjų gauti avansai/, "423"],
    ["4410", "liability", true, false, /trumpalaikių paskolų/, "441"],
    ["4420", "liability", true, false, /Iš pirkėjų gauti avansai/, "442"],
    ["4440", "liability", true, false, /vekselius ir čekius/, "444"],
    ["4491", "liability", true, false, /tantjemos/, "449"],
    ["4493", "liability", true, false, /Kiti į biudžetą mokėtini mokesčiai/, "449"],
    ["4494", "liability", true, false, /^Kitos mokėtinos sumos$/, "449"],
    ["5802", "income", true, false, /Kitų suteiktų paskolų/, "58"],
    ["5809", "income", true, false, /Investicijų perleidimo pelnas/, "58"],
  ])("%s: %s, postable %s, contra %s", (code, type, isPostable, isContra, name, parentCode) => {
    expect(get(code)).toMatchObject({ code, type, isPostable, isContra, parentCode });
    expect(get(code).name).toMatch(name);
  });

  test.each(["1292", "1293", "1294", "1295", "1297", "2610", "6210", "6214"])("%s (an old template code) is gone", (code) => {
    expect(accounts.get(code)).toBeUndefined();
  });

  test("accumulated depreciation and impairment are contra: every 12x7 and 12x9, every 11x8 and 11x9", () => {
    const wrong = [...accounts.values()].filter((a) => /^1[12][0-9][789]$/.test(a.code) && !a.isContra);
    expect(wrong.map((a) => a.code)).toEqual([]);
  });
});

describe("the Lithuanian essentials", () => {
  test.each([
    ["63081", "expense", /Neatskaitomo pridėtinės vertės mokesčio/, "PL.6"],
    ["6315", "expense", /Reprezentacinės/, "PL.6"],
    ["6311", "expense", /Baudų/, "PL.6"],
    ["6804", "expense", /Delspinigių/, "PL.12"],
    ["6316", "expense", /dienpinigių/, "PL.6"],
    ["6317", "expense", /Paramos/, "PL.6"],
    ["63080", "expense", /Nekilnojamojo turto mokesčio/, "PL.6"],
    ["5009", "income", /apvalinimas/, "PL.1"],
    ["6319", "expense", /apvalinimas/, "PL.6"],
    ["171", "asset", /Atidėtojo pelno mokesčio turtas/, "A.IV.1"],
    ["4120", "liability", /Atidėtojo pelno mokesčio įsipareigojimai/, "F.2"],
    ["6901", "expense", /Atidėtojo pelno mokesčio/, "PL.14"],
    ["4121", "liability", /mokesčių atidėjiniai/, "F.2"],
    ["491", "liability", /^Sukauptos sąnaudos$/, "H"],
    ["492", "liability", /^Ateinančių laikotarpių pajamos$/, "H"],
    ["401", "liability", /dotacijos/, "E"],
    ["3050", "equity", /Individualios įmonės savininko kapitalas/, "D.I.1"],
    ["3080", "equity", /Mažosios bendrijos narių įnašai/, "D.I.1"],
    ["24471", "asset", /avansu išmokėtas pelnas/, "B.II.4"],
    ["24472", "asset", /asmeniniams poreikiams/, "B.II.4"],
    ["4495", "liability", /savininkams mokėtinos sumos/, "G.II.10"],
    ["999", "equity", /Pradinių likučių tarpinė/, "X"],
  ])("%s is a postable %s account on line %s", (code, type, name, line) => {
    expect(get(code)).toMatchObject({ type, isPostable: true, statementLine: line });
    expect(get(code).name).toMatch(name);
  });

  test("accruals and deferred income have groups of their own (29 and 49), as the statements' sections C and H", () => {
    expect(get("29")).toMatchObject({ isPostable: false, statementLine: "C", parentCode: "2" });
    expect(get("49")).toMatchObject({ isPostable: false, statementLine: "H", parentCode: "4" });
    expect(get("40")).toMatchObject({ isPostable: false, statementLine: "E" });
  });
});

describe("SAF-T mapping, contra flags and statement lines of every account", () => {
  const SAFT_TYPE: Record<string, string> = { "1": "IT", "2": "TT", "3": "NK", "4": "I", "5": "P", "6": "S" };

  test("every postable account has an AccountTableID, the AccountType of its class and a statement line", () => {
    const postable = [...accounts.values()].filter((a) => a.isPostable);
    expect(postable.length).toBeGreaterThan(250);
    expect(postable.filter((a) => !a.saft.accountTableId || !/^[0-9]{1,6}$/.test(a.saft.accountTableId)).map((a) => a.code)).toEqual([]);
    expect(postable.filter((a) => !a.statementLine).map((a) => a.code)).toEqual([]);
    const wrongType = [...accounts.values()].filter((a) => a.saft.accountType !== (a.code === "999" ? "KT" : SAFT_TYPE[a.code[0]]));
    expect(wrongType.map((a) => a.code)).toEqual([]);
  });

  test("an AccountTableID is the account's own code or a sample-chart account above it (3010 maps to 3011, ordinary shares)", () => {
    const wrong = [...accounts.values()].filter((a) => {
      const id = a.saft.accountTableId;
      if (id === a.code) return false;
      if (a.code === "3010") return id !== "3011";
      if (a.code === "6206") return id !== "6306";
      return !(id && accounts.has(id) && (a.code.startsWith(id) || a.code.slice(0, 2) === id.slice(0, 2)));
    });
    expect(wrong.map((a) => `${a.code}->${a.saft.accountTableId}`)).toEqual([]);
  });

  test.each([
    ["1", "S1L", null],
    ["11", "S2L", "1"],
    ["12", "S2L", "1"],
    ["125", "S2L", "12"],
    ["1250", "S", "125"],
    ["111", "S", "11"],
    ["1110", "D", "111"],
    ["116", "D", "11"],
    ["2447", "S", "244"],
    ["24471", "D", "2447"],
    ["999", "D1L", null],
  ])("%s has grouping category %s under %s", (code, groupingCategory, groupingCode) => {
    expect(get(code).saft).toMatchObject({ groupingCategory, groupingCode });
  });

  test("every account named (−) is a contra account, and every contra account is named (−)", () => {
    const mismatched = [...accounts.values()].filter((a) => a.isPostable && a.name.includes("(−)") !== a.isContra);
    expect(mismatched.map((a) => a.code)).toEqual([]);
  });

  test("the API list filters on isContra and statementLine", async () => {
    const contra = await w.api.ledger.accounts.list({
      filter: [
        { field: "isContra", op: "eq", value: true },
        { field: "statementLine", op: "eq", value: "A.II.2" },
      ],
    });
    expect(contra.rows.map((a) => a.code)).toEqual(["1217", "1218", "1219"]);
  });

  test("a sub-account created under a mapped account takes its parent's statement line and AccountTableID", async () => {
    const made = await w.api.ledger.accounts.create({ code: "2712", name: "Luminor sąskaita", type: "asset", parentCode: "271" });
    expect(made).toMatchObject({
      statementLine: "B.IV",
      isContra: false,
      saft: { accountTableId: "271", accountType: "TT", groupingCategory: "D", groupingCode: "271" },
    });
    expect(await h.db("ledger_accounts").where({ company_id: w.companyId, code: "2712" }).first()).toMatchObject({
      statement_line: "B.IV",
      saft_account_table_id: "271",
      saft_account_type: "TT",
    });
  });
});

describe("an account a posting rule posts to keeps a type the rule posts to", () => {
  test.each<{ name: string; body: RequestBody<"ledger_accounts_update">; rule: string }>([
    { name: "4492 (output VAT by default) made an expense", body: { code: "4492", type: "expense" }, rule: "sales.vatPayable" },
    { name: "2441 (input VAT by default) made non-postable", body: { code: "2441", isPostable: false }, rule: "purchases.vatReceivable" },
  ])("$name -> 409 ledger_account.used_by_posting_rule, nothing changes", async ({ body, rule }) => {
    const t = await world(h);
    const before = await h.db("ledger_accounts").where({ company_id: t.companyId, code: body.code }).first();
    expect(before).toBeDefined();
    const error = await expectApiError(t.api.ledger.accounts.update(body), 409, "conflict", "ledger_account.used_by_posting_rule");
    expect(error.params).toEqual({ code: body.code, rule });
    expect(await h.db("ledger_accounts").where({ company_id: t.companyId, code: body.code }).first()).toEqual(before);
  });

  test("once the rule points elsewhere, the account may change", async () => {
    const t = await world(h);
    expect(await t.api.ledger.postingRules.update({ rule: "bank.fees", accountCode: "6802" })).toMatchObject({ rule: "bank.fees", accountCode: "6802" });
    expect(await h.db("posting_rules").where({ company_id: t.companyId, rule: "bank.fees" }).first()).toMatchObject({ account_code: "6802" });
    expect(await t.api.ledger.accounts.update({ code: "6314", isPostable: false })).toMatchObject({ code: "6314", isPostable: false });
    expect(await h.db("ledger_accounts").where({ company_id: t.companyId, code: "6314" }).first()).toMatchObject({ is_postable: false });
  });
});

describe("statements: a contra account reduces its line", () => {
  test("buildings less accumulated depreciation on A.II.2; depreciation expense (6206) on the G&A line", async () => {
    const t = await world(h);
    const post = (date: string, entries: Entries) => t.api.ledger.journal.transactions.create({ date, entries });
    await post("2026-01-02", [
      { accountCode: "1210", debit: "12000.00" },
      { accountCode: "3010", credit: "12000.00" },
    ]);
    await post("2026-01-31", [
      { accountCode: "6206", debit: "100.00" },
      { accountCode: "1217", credit: "100.00" },
    ]);
    expect(await h.db("journal_entries").where({ company_id: t.companyId }).count({ n: "*" }).first()).toEqual({ n: "4" });
    const bs = await t.api.ledger.reports.balanceSheet({ date: "2026-01-31" });
    const lines = Object.fromEntries(bs.statementLines.map((l) => [l.line, l.amount]));
    expect(lines).toMatchObject({ A: "11900.00", "A.II": "11900.00", "A.II.2": "11900.00", D: "11900.00", "D.I.1": "12000.00", "D.V.1": "-100.00" });
    const pl = await t.api.ledger.reports.profitAndLoss({ from: "2026-01-01", to: "2026-01-31" });
    const plLines = Object.fromEntries(pl.statementLines.map((l) => [l.line, l.amount]));
    expect(plLines).toMatchObject({ "PL.5": "0.00", "PL.6": "-100.00", "PL.13": "-100.00", "PL.15": "-100.00" });
    expect(pl.netResult).toBe("-100.00");
  });

  test("opening balances against 999: line X shows what is left; zero once complete", async () => {
    const t = await world(h);
    const post = (entries: Entries) => t.api.ledger.journal.transactions.create({ date: "2026-01-01", entries });
    await post([
      { accountCode: "2710", debit: "500.00" },
      { accountCode: "999", credit: "500.00" },
    ]);
    const open = await t.api.ledger.reports.balanceSheet({ date: "2026-01-01" });
    expect(open.statementLines.find((l) => l.line === "X")).toMatchObject({ amount: "-500.00" });
    await post([
      { accountCode: "999", debit: "500.00" },
      { accountCode: "3010", credit: "500.00" },
    ]);
    const closed = await t.api.ledger.reports.balanceSheet({ date: "2026-01-01" });
    expect(closed.statementLines.find((l) => l.line === "X")).toMatchObject({ amount: "0.00" });
  });
});

describe("migration of a company that applied the old template", () => {
  test("unposted old accounts are replaced by the new chart; posted ones stay; rule choices naming deleted accounts go", async () => {
    const t = await world(h, { chart: false });
    const db = h.db;
    // The old template as it was seeded: its codes and names, parents by its own rules, types by class.
    const classType: Record<string, string> = { "1": "asset", "2": "asset", "3": "equity", "4": "liability", "5": "income", "6": "expense" };
    const codes = new Set(OLD_TEMPLATE.map(([c]) => c));
    const parentOf = (c: string) =>
      c.length === 1
        ? null
        : c.length === 2
          ? c[0]
          : ["4480", "4490"].includes(`${c.slice(0, 3)}0`) && `${c.slice(0, 3)}0` !== c
            ? `${c.slice(0, 3)}0`
            : c.slice(0, 2);
    const parents = new Set(OLD_TEMPLATE.map(([c]) => parentOf(c)).filter(Boolean));
    await db("ledger_accounts").insert(
      OLD_TEMPLATE.map(([code, name]) => ({
        company_id: t.companyId,
        code,
        name,
        name_en: "old",
        type: classType[code[0]],
        parent_code: parentOf(code),
        is_postable: !parents.has(code),
      })),
    );
    expect(codes.size).toBe(143);
    // Entries on 1292 (gone from the new chart) and 2410 (kept); a rule pointing at 6210 (gone, unposted).
    await t.api.ledger.journal.transactions.create({
      date: "2026-01-10",
      entries: [
        { accountCode: "1292", credit: "10.00" },
        { accountCode: "2410", debit: "10.00" },
      ],
    });
    await db("posting_rules").insert({ company_id: t.companyId, rule: "bank.fees", account_code: "6210" });

    // The migration finds this company (and not one that applied the new template) and rewrites it.
    const found = await companiesWithOldTemplate(db);
    expect(found).toContain(t.companyId);
    expect(found).not.toContain(w.companyId);
    await db.transaction((trx) => rewriteChart(trx, t.companyId));
    expect(await companiesWithOldTemplate(db)).not.toContain(t.companyId);

    const rows: any[] = await db("ledger_accounts").where({ company_id: t.companyId });
    const byCode = new Map(rows.map((r) => [r.code, r]));
    expect(byCode.get("1292")).toMatchObject({ name: "Sukauptas pastatų ir statinių nusidėvėjimas", parent_code: "12" }); // posted: stays
    expect(byCode.get("2410")).toMatchObject({ name: "Pirkėjų skolų vertė", parent_code: "241", statement_line: "B.II.1", saft_account_table_id: "2410" });
    expect(byCode.get("6210")).toBeUndefined();
    expect(byCode.get("1217")).toMatchObject({ is_contra: true, statement_line: "A.II.2" });
    expect(byCode.get("6209")).toMatchObject({ name: "Gautos nuolaidos (−)", is_contra: true });
    expect(rows).toHaveLength(372 + 1);
    expect(await db("posting_rules").where({ company_id: t.companyId })).toEqual([]);
    // The journal is untouched.
    expect(await db("journal_entries").where({ company_id: t.companyId }).orderBy("line_no").select("account_code", "debit", "credit")).toEqual([
      { account_code: "1292", debit: "0.00", credit: "10.00" },
      { account_code: "2410", debit: "10.00", credit: "0.00" },
    ]);
    // Applying the template now finds everything in place.
    expect(await t.api.ledger.accounts.applyTemplate({ template: "lt-standard" })).toMatchObject({ created: 0, existing: 372 });
  });
});
