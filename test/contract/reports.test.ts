// Ledger reports over a small, fully known journal: exact figures for every report, opening balances at the
// range boundary, a reversal, the fiscal year, and the errors (range, unknown account, row limit, scope, tenancy).
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { startHarness, type Harness } from "../support/harness.js";

let h: Harness;
let o: { key: string; companyId: string };
const ids: Record<string, string> = {};

const post = (path: string, body: unknown, options = o) => h.post(`/v1/ledger/${path}`, body, options);
const tb = (from: string, to: string) => post("reports/trial-balance", { from, to });
const gl = (accountCode: string, from: string, to: string) => post("reports/general-ledger", { accountCode, from, to });
const bs = (date: string, options = o) => post("reports/balance-sheet", { date }, options);
const pl = (from: string, to: string) => post("reports/profit-and-loss", { from, to });

async function journal(name: string, date: string, lines: [string, "debit" | "credit", string, string?][], description?: string, options = o) {
  const entries = lines.map(([accountCode, side, amount, partnerCode]) => ({ accountCode, [side]: amount, ...(partnerCode ? { partnerCode } : {}) }));
  const res = await post("journal/transactions/create", { date, description, entries }, options);
  if (res.status !== 200) throw new Error(`posting ${name} failed: ${JSON.stringify(res.body)}`);
  ids[name] = res.body.id;
}

const row = (accountCode: string, openingBalance: string, debit: string, credit: string, closingBalance: string) => ({
  accountCode,
  openingBalance,
  debit,
  credit,
  closingBalance,
});
/** Statement lines with a non-zero amount, as line -> amount. */
const nonZero = (lines: { line: string; amount: string }[]) => Object.fromEntries(lines.filter((l) => l.amount !== "0.00").map((l) => [l.line, l.amount]));
const rowsOf = (body: any) =>
  body.rows.map(({ accountCode, openingBalance, debit, credit, closingBalance }: any) => row(accountCode, openingBalance, debit, credit, closingBalance));

beforeAll(async () => {
  h = await startHarness();
  const t = await h.tenant();
  o = { key: t.apiKey, companyId: t.companyId };
  expect((await post("accounts/apply-template", { template: "lt-standard" })).status).toBe(200);
  expect((await h.post("/v1/partners/create", { name: "Pirkėjas UAB", code: "P1" }, o)).status).toBe(200);
  // 2025 has no number series (numbers null); 2026 numbers BZ-1, BZ-2, … in posting order.
  await journal(
    "capital",
    "2025-12-10",
    [
      ["2710", "debit", "10000.00"],
      ["3010", "credit", "10000"],
    ],
    "Kapitalas",
  );
  await journal(
    "sale2025",
    "2025-12-20",
    [
      ["2410", "debit", "1210.00", "P1"],
      ["5000", "credit", "1000.00"],
      ["4492", "credit", "210.00"],
    ],
    "Pardavimas 2025",
  );
  expect((await h.post("/v1/reference/series/create", { documentType: "journal", prefix: "BZ", year: 2026 }, o)).status).toBe(200);
  await journal(
    "rent",
    "2026-01-05",
    [
      ["6300", "debit", "500.00"],
      ["2710", "credit", "500.00"],
    ],
    "Nuoma",
  ); // BZ-1
  await journal(
    "sale",
    "2026-01-31",
    [
      ["2410", "debit", "605.00", "P1"],
      ["5000", "credit", "500.00"],
      ["4492", "credit", "105.00"],
    ],
    "Pardavimas",
  ); // BZ-2
  await journal(
    "payment",
    "2026-02-01",
    [
      ["2710", "debit", "1210.00"],
      ["2410", "credit", "1210.00", "P1"],
    ],
    "Apmokėjimas",
  ); // BZ-3
  await journal(
    "mistake",
    "2026-02-10",
    [
      ["6312", "debit", "99.99"],
      ["2710", "credit", "99.99"],
    ],
    "Klaida",
  ); // BZ-4
  const reversal = await post("journal/transactions/reverse", { id: ids.mistake }); // BZ-5, same day
  expect(reversal.status).toBe(200);
  ids.reversal = reversal.body.id;
  await journal(
    "interest",
    "2026-03-01",
    [
      ["2710", "debit", "0.01"],
      ["5802", "credit", "0.01"],
    ],
    "Palūkanos",
  ); // BZ-6
});
afterAll(() => h.close());

describe("trial balance", () => {
  test("January 2026: opening balances from 2025, the month's movements, totals that balance", async () => {
    const res = await tb("2026-01-01", "2026-01-31");
    expect(res.status).toBe(200);
    expect(rowsOf(res.body)).toEqual([
      row("2410", "1210.00", "605.00", "0.00", "1815.00"),
      row("2710", "10000.00", "0.00", "500.00", "9500.00"),
      row("3010", "-10000.00", "0.00", "0.00", "-10000.00"),
      row("4492", "-210.00", "0.00", "105.00", "-315.00"),
      row("5000", "-1000.00", "0.00", "500.00", "-1500.00"),
      row("6300", "0.00", "500.00", "0.00", "500.00"),
    ]);
    expect(res.body.rows[0]).toEqual({
      accountCode: "2410",
      name: "Pirkėjų skolų vertė",
      type: "asset",
      openingBalance: "1210.00",
      debit: "605.00",
      credit: "0.00",
      closingBalance: "1815.00",
    });
    expect(res.body.totals).toEqual({ openingBalance: "0.00", debit: "1105.00", credit: "1105.00", closingBalance: "0.00" });
    expect(res.body).toMatchObject({ from: "2026-01-01", to: "2026-01-31", balanced: true });
  });

  test("the range boundary: a posting on `from` is a movement, a posting the day before is in the opening balance", async () => {
    const res = await tb("2026-01-31", "2026-02-01");
    expect(rowsOf(res.body)).toEqual([
      row("2410", "1210.00", "605.00", "1210.00", "605.00"),
      row("2710", "9500.00", "1210.00", "0.00", "10710.00"),
      row("3010", "-10000.00", "0.00", "0.00", "-10000.00"),
      row("4492", "-210.00", "0.00", "105.00", "-315.00"),
      row("5000", "-1000.00", "0.00", "500.00", "-1500.00"),
      row("6300", "500.00", "0.00", "0.00", "500.00"),
    ]);
    expect(res.body.totals).toEqual({ openingBalance: "0.00", debit: "1815.00", credit: "1815.00", closingBalance: "0.00" });
    const oneDay = await tb("2026-02-01", "2026-02-01");
    expect(rowsOf(oneDay.body).find((r: any) => r.accountCode === "2410")).toEqual(row("2410", "1815.00", "0.00", "1210.00", "605.00"));
  });

  test("a reversed transaction shows both movements and leaves no balance", async () => {
    const res = await tb("2026-02-10", "2026-02-10");
    const byCode = Object.fromEntries(rowsOf(res.body).map((r: any) => [r.accountCode, r]));
    expect(byCode["6312"]).toEqual(row("6312", "0.00", "99.99", "99.99", "0.00"));
    expect(byCode["2710"]).toEqual(row("2710", "10710.00", "99.99", "99.99", "10710.00"));
    expect(res.body.totals).toEqual({ openingBalance: "0.00", debit: "199.98", credit: "199.98", closingBalance: "0.00" });
    // After the day the pair nets to nothing, so 6312 has neither balance nor movement and is left out.
    const after = await tb("2026-02-11", "2026-12-31");
    expect(after.body.rows.map((r: any) => r.accountCode)).not.toContain("6312");
  });

  test("empty ranges: before any posting nothing; after the last posting only opening balances", async () => {
    const before = await tb("2024-01-01", "2024-12-31");
    expect(before.body).toEqual({
      from: "2024-01-01",
      to: "2024-12-31",
      rows: [],
      totals: { openingBalance: "0.00", debit: "0.00", credit: "0.00", closingBalance: "0.00" },
      balanced: true,
    });
    const after = await tb("2027-01-01", "2027-01-31");
    expect(rowsOf(after.body)).toEqual([
      row("2410", "605.00", "0.00", "0.00", "605.00"),
      row("2710", "10710.01", "0.00", "0.00", "10710.01"),
      row("3010", "-10000.00", "0.00", "0.00", "-10000.00"),
      row("4492", "-315.00", "0.00", "0.00", "-315.00"),
      row("5000", "-1500.00", "0.00", "0.00", "-1500.00"),
      row("5802", "-0.01", "0.00", "0.00", "-0.01"),
      row("6300", "500.00", "0.00", "0.00", "500.00"),
    ]);
    expect(after.body.totals).toEqual({ openingBalance: "0.00", debit: "0.00", credit: "0.00", closingBalance: "0.00" });
  });
});

describe("general ledger", () => {
  test("bank account: opening balance, lines in date then posting order with a running balance, totals", async () => {
    const res = await gl("2710", "2026-02-01", "2026-03-31");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      account: { code: "2710", name: "Sąskaitos bankuose eurais", type: "asset" },
      from: "2026-02-01",
      to: "2026-03-31",
      openingBalance: "9500.00",
      debit: "1310.00",
      credit: "99.99",
      closingBalance: "10710.01",
    });
    expect(res.body.entries).toEqual([
      {
        date: "2026-02-01",
        transactionId: ids.payment,
        lineNo: 1,
        number: "BZ-3",
        documentType: "manual",
        description: "Apmokėjimas",
        reference: null,
        partnerCode: null,
        debit: "1210.00",
        credit: "0.00",
        balance: "10710.00",
      },
      {
        date: "2026-02-10",
        transactionId: ids.mistake,
        lineNo: 2,
        number: "BZ-4",
        documentType: "manual",
        description: "Klaida",
        reference: null,
        partnerCode: null,
        debit: "0.00",
        credit: "99.99",
        balance: "10610.01",
      },
      {
        date: "2026-02-10",
        transactionId: ids.reversal,
        lineNo: 2,
        number: "BZ-5",
        documentType: "reversal",
        description: "Reversal of BZ-4",
        reference: null,
        partnerCode: null,
        debit: "99.99",
        credit: "0.00",
        balance: "10710.00",
      },
      {
        date: "2026-03-01",
        transactionId: ids.interest,
        lineNo: 1,
        number: "BZ-6",
        documentType: "manual",
        description: "Palūkanos",
        reference: null,
        partnerCode: null,
        debit: "0.01",
        credit: "0.00",
        balance: "10710.01",
      },
    ]);
  });

  test("receivable across the year boundary, with partners and a null number", async () => {
    const res = await gl("2410", "2025-12-20", "2026-02-28");
    expect(res.body.openingBalance).toBe("0.00");
    expect(res.body.entries.map((e: any) => [e.date, e.number, e.partnerCode, e.debit, e.credit, e.balance])).toEqual([
      ["2025-12-20", null, "P1", "1210.00", "0.00", "1210.00"],
      ["2026-01-31", "BZ-2", "P1", "605.00", "0.00", "1815.00"],
      ["2026-02-01", "BZ-3", "P1", "0.00", "1210.00", "605.00"],
    ]);
    expect(res.body).toMatchObject({ debit: "1815.00", credit: "1210.00", closingBalance: "605.00" });
    const later = await gl("2410", "2026-01-01", "2026-01-31");
    expect(later.body).toMatchObject({ openingBalance: "1210.00", debit: "605.00", credit: "0.00", closingBalance: "1815.00" });
  });

  test("an account without lines in the range, and a header account", async () => {
    expect((await gl("3010", "2026-01-01", "2026-12-31")).body).toMatchObject({
      openingBalance: "-10000.00",
      entries: [],
      debit: "0.00",
      credit: "0.00",
      closingBalance: "-10000.00",
    });
    expect((await gl("27", "2025-01-01", "2026-12-31")).body).toMatchObject({
      account: { code: "27", type: "asset" },
      openingBalance: "0.00",
      entries: [],
      closingBalance: "0.00",
    });
  });

  test("an unknown account is 404", async () => {
    const res = await gl("9999", "2026-01-01", "2026-12-31");
    expect(res.status).toBe(404);
    expect(res.body.error).toMatchObject({ code: "not_found", key: "ledger_account.not_found", params: { code: "9999" } });
  });

  test("at most 10,000 lines: 9,980 are returned, 10,479 are a 422", async () => {
    const t = await h.tenant();
    const other = { key: t.apiKey, companyId: t.companyId };
    await post("accounts/apply-template", { template: "lt-standard" }, other);
    const big = (date: string) => ({
      date,
      entries: [...Array.from({ length: 499 }, () => ({ accountCode: "2720", debit: "1.00" })), { accountCode: "3010", credit: "499.00" }],
    });
    for (let i = 0; i < 20; i++) expect((await post("journal/transactions/create", big("2026-05-01"), other)).status).toBe(200);
    expect((await post("journal/transactions/create", big("2026-05-02"), other)).status).toBe(200);
    const within = await post("reports/general-ledger", { accountCode: "2720", from: "2026-05-01", to: "2026-05-01" }, other);
    expect(within.status).toBe(200);
    expect(within.body.entries).toHaveLength(9980);
    expect(within.body).toMatchObject({ debit: "9980.00", closingBalance: "9980.00" });
    expect(within.body.entries[9979].balance).toBe("9980.00");
    const beyond = await post("reports/general-ledger", { accountCode: "2720", from: "2026-05-01", to: "2026-05-02" }, other);
    expect(beyond.status).toBe(422);
    expect(beyond.body.error).toMatchObject({ code: "unprocessable", key: "report.too_many_entries", params: { limit: 10000 } });
  });
});

describe("profit and loss", () => {
  test("2026: income and expenses by group; the reversed expense is left out", async () => {
    const res = await pl("2026-01-01", "2026-12-31");
    expect(res.status).toBe(200);
    const { statementLines, ...rest } = res.body;
    expect(rest).toEqual({
      from: "2026-01-01",
      to: "2026-12-31",
      income: {
        groups: [
          { code: "50", name: "Pardavimo pajamos", amount: "500.00", accounts: [{ accountCode: "5000", name: "Parduotų prekių pajamos", amount: "500.00" }] },
          {
            code: "58",
            name: "Kitos palūkanų ir panašios pajamos",
            amount: "0.01",
            accounts: [{ accountCode: "5802", name: "Kitų suteiktų paskolų ir indėlių palūkanų pajamos", amount: "0.01" }],
          },
        ],
        total: "500.01",
      },
      expenses: {
        groups: [
          {
            code: "63",
            name: "Bendrosios ir administracinės sąnaudos",
            amount: "500.00",
            accounts: [{ accountCode: "6300", name: "Nuomos sąnaudos", amount: "500.00" }],
          },
        ],
        total: "500.00",
      },
      netResult: "0.01",
      unmappedAccounts: [],
    });
    // The VAS 3 form: revenue, G&A (rent), other interest; gross profit, profit before tax and net profit as subtotals.
    expect(statementLines.map((l: { line: string }) => l.line)).toEqual(Array.from({ length: 15 }, (_, i) => `PL.${i + 1}`));
    expect(nonZero(statementLines)).toEqual({ "PL.1": "500.00", "PL.4": "500.00", "PL.6": "-500.00", "PL.10": "0.01", "PL.13": "0.01", "PL.15": "0.01" });
    expect(statementLines[5]).toEqual({
      line: "PL.6",
      name: "Bendrosios ir administracinės sąnaudos",
      nameEn: "General and administrative expenses",
      amount: "-500.00",
    });
  });

  test("December 2025: a profit; an empty range is all zeros", async () => {
    expect((await pl("2025-12-01", "2025-12-31")).body).toMatchObject({
      income: { total: "1000.00" },
      expenses: { groups: [], total: "0.00" },
      netResult: "1000.00",
    });
    const empty = (await pl("2026-01-06", "2026-01-30")).body;
    expect({ ...empty, statementLines: nonZero(empty.statementLines) }).toEqual({
      from: "2026-01-06",
      to: "2026-01-30",
      income: { groups: [], total: "0.00" },
      expenses: { groups: [], total: "0.00" },
      netResult: "0.00",
      statementLines: {},
      unmappedAccounts: [],
    });
    expect((await pl("2026-01-05", "2026-01-05")).body).toMatchObject({ expenses: { total: "500.00" }, netResult: "-500.00" });
  });
});

describe("balance sheet", () => {
  test("31 March 2026: classes and groups, the current and prior years' results, balanced", async () => {
    const res = await bs("2026-03-31");
    expect(res.status).toBe(200);
    const { statementLines, ...rest } = res.body;
    expect(rest).toEqual({
      asOf: "2026-03-31",
      date: "2026-03-31",
      fiscalYearStart: "2026-01-01",
      assets: {
        classes: [
          {
            code: "2",
            name: "TRUMPALAIKIS TURTAS",
            amount: "11315.01",
            groups: [
              {
                code: "24",
                name: "Per vienus metus gautinos sumos",
                amount: "605.00",
                accounts: [{ accountCode: "2410", name: "Pirkėjų skolų vertė", amount: "605.00" }],
              },
              {
                code: "27",
                name: "Pinigai ir pinigų ekvivalentai",
                amount: "10710.01",
                accounts: [{ accountCode: "2710", name: "Sąskaitos bankuose eurais", amount: "10710.01" }],
              },
            ],
          },
        ],
        total: "11315.01",
      },
      equity: {
        classes: [
          {
            code: "3",
            name: "NUOSAVAS KAPITALAS",
            amount: "10000.00",
            groups: [
              {
                code: "30",
                name: "Kapitalas",
                amount: "10000.00",
                accounts: [{ accountCode: "3010", name: "Įstatinis kapitalas – paprastosios akcijos", amount: "10000.00" }],
              },
            ],
          },
        ],
        currentYearResult: "0.01",
        priorYearsResult: "1000.00",
        total: "11000.01",
      },
      liabilities: {
        classes: [
          {
            code: "4",
            name: "DOTACIJOS, SUBSIDIJOS, ATIDĖJINIAI, MOKĖTINOS SUMOS IR KITI ĮSIPAREIGOJIMAI",
            amount: "315.00",
            groups: [
              {
                code: "44",
                name: "Per vienus metus mokėtinos sumos ir kiti trumpalaikiai įsipareigojimai",
                amount: "315.00",
                accounts: [{ accountCode: "4492", name: "Mokėtinas pridėtinės vertės mokestis", amount: "315.00" }],
              },
            ],
          },
        ],
        total: "315.00",
      },
      totalAssets: "11315.01",
      totalEquityAndLiabilities: "11315.01",
      balanced: true,
      unmappedAccounts: [],
    });
    // The VAS 2 form: receivables and cash in current assets, capital, and the results in D.V.1 and D.V.2 (the
    // income and expense accounts not yet closed), output VAT in the other current liabilities.
    expect(statementLines[0]).toEqual({ line: "A", name: "ILGALAIKIS TURTAS", nameEn: "NON-CURRENT ASSETS", amount: "0.00" });
    expect(statementLines.map((l: { line: string }) => l.line).slice(-3)).toEqual(["G.II.10", "H", "X"]);
    expect(nonZero(statementLines)).toEqual({
      B: "11315.01",
      "B.II": "605.00",
      "B.II.1": "605.00",
      "B.IV": "10710.01",
      D: "11000.01",
      "D.I": "10000.00",
      "D.I.1": "10000.00",
      "D.V": "1000.01",
      "D.V.1": "0.01",
      "D.V.2": "1000.00",
      G: "315.00",
      "G.II": "315.00",
      "G.II.10": "315.00",
    });
  });

  test("31 December 2025: the year's profit is the current result; the day's postings count", async () => {
    const res = await bs("2025-12-31");
    expect(res.body).toMatchObject({
      fiscalYearStart: "2025-01-01",
      assets: { total: "11210.00" },
      equity: { total: "11000.00", currentYearResult: "1000.00", priorYearsResult: "0.00" },
      liabilities: { total: "210.00" },
      totalAssets: "11210.00",
      totalEquityAndLiabilities: "11210.00",
      balanced: true,
    });
    expect((await bs("2025-12-09")).body).toMatchObject({
      assets: { classes: [], total: "0.00" },
      equity: { classes: [], total: "0.00" },
      totalAssets: "0.00",
      balanced: true,
    });
    expect((await bs("2025-12-10")).body).toMatchObject({ totalAssets: "10000.00", totalEquityAndLiabilities: "10000.00" });
  });

  test("a financial year starting in July, and accounts without a numeric code", async () => {
    const t = await h.tenant({ fiscalYearStartMonth: 7 });
    const july = { key: t.apiKey, companyId: t.companyId };
    await post("accounts/apply-template", { template: "lt-standard" }, july);
    expect((await post("accounts/create", { code: "BANKX", name: "Kita banko sąskaita", type: "asset" }, july)).status).toBe(200);
    await journal(
      "june",
      "2026-06-30",
      [
        ["BANKX", "debit", "100.00"],
        ["5401", "credit", "100.00"],
      ],
      undefined,
      july,
    );
    await journal(
      "july",
      "2026-07-01",
      [
        ["2720", "debit", "40.00"],
        ["5401", "credit", "40.00"],
      ],
      undefined,
      july,
    );
    const june = await bs("2026-06-30", july);
    expect(june.body).toMatchObject({
      fiscalYearStart: "2025-07-01",
      equity: { currentYearResult: "100.00", priorYearsResult: "0.00", total: "100.00" },
      balanced: true,
    });
    const res = await bs("2026-07-15", july);
    expect(res.body).toMatchObject({
      fiscalYearStart: "2026-07-01",
      equity: { classes: [], currentYearResult: "40.00", priorYearsResult: "100.00", total: "140.00" },
    });
    expect(res.body.assets).toEqual({
      classes: [
        {
          code: "2",
          name: "TRUMPALAIKIS TURTAS",
          amount: "40.00",
          groups: [
            { code: "27", name: "Pinigai ir pinigų ekvivalentai", amount: "40.00", accounts: [{ accountCode: "2720", name: "Kasa eurais", amount: "40.00" }] },
          ],
        },
        {
          code: null,
          name: "Other assets",
          amount: "100.00",
          groups: [{ code: null, name: "Other assets", amount: "100.00", accounts: [{ accountCode: "BANKX", name: "Kita banko sąskaita", amount: "100.00" }] }],
        },
      ],
      total: "140.00",
    });
    expect(res.body).toMatchObject({ totalAssets: "140.00", totalEquityAndLiabilities: "140.00", balanced: true, unmappedAccounts: ["BANKX"] });
    // BANKX has no statement line: the form shows the mapped 40.00 of assets and the whole result, and names BANKX.
    expect(nonZero(res.body.statementLines)).toMatchObject({ B: "40.00", "B.IV": "40.00", "D.V.1": "40.00", "D.V.2": "100.00" });
  });
});

describe("errors, scope and tenancy", () => {
  const cases: { name: string; path: string; body: Record<string, unknown>; status: number; fields: string[] }[] = [
    {
      name: "trial balance ending before it starts",
      path: "reports/trial-balance",
      body: { from: "2026-02-01", to: "2026-01-31" },
      status: 400,
      fields: ["to"],
    },
    {
      name: "general ledger ending before it starts",
      path: "reports/general-ledger",
      body: { accountCode: "2710", from: "2026-02-01", to: "2026-01-31" },
      status: 400,
      fields: ["to"],
    },
    {
      name: "profit and loss ending before it starts",
      path: "reports/profit-and-loss",
      body: { from: "2026-12-31", to: "2026-01-01" },
      status: 400,
      fields: ["to"],
    },
    { name: "a date that is no date", path: "reports/trial-balance", body: { from: "2026-13-01", to: "2026-12-31" }, status: 400, fields: ["from"] },
    { name: "neither asOf nor the deprecated date", path: "reports/balance-sheet", body: {}, status: 400, fields: ["asOf", "date"] },
    {
      name: "an unknown property",
      path: "reports/profit-and-loss",
      body: { from: "2026-01-01", to: "2026-01-31", accountCode: "2710" },
      status: 400,
      fields: ["accountCode"],
    },
  ];
  test.each(cases)("$name: $status naming $fields", async ({ path, body, status, fields }) => {
    const res = await post(path, body);
    expect(res.status).toBe(status);
    expect(res.body.error.code).toBe("validation");
    expect(Object.keys(res.body.error.fieldErrors ?? {})).toEqual(fields);
  });

  test("reports need ledger:read: a ledger:read key reads them, a partners key is 403", async () => {
    const reader = await h.post("/v1/account/api-keys/create", { name: "reader", scopes: ["ledger:read"] }, { key: o.key });
    const other = await h.post("/v1/account/api-keys/create", { name: "partners", scopes: ["partners:read"] }, { key: o.key });
    expect((await tb("2026-01-01", "2026-01-31")).status).toBe(200);
    expect((await post("reports/balance-sheet", { date: "2026-03-31" }, { key: reader.body.key, companyId: o.companyId })).body.totalAssets).toBe("11315.01");
    for (const [path, body] of [
      ["reports/trial-balance", { from: "2026-01-01", to: "2026-01-31" }],
      ["reports/general-ledger", { accountCode: "2710", from: "2026-01-01", to: "2026-01-31" }],
      ["reports/balance-sheet", { date: "2026-03-31" }],
      ["reports/profit-and-loss", { from: "2026-01-01", to: "2026-01-31" }],
    ] as const) {
      const res = await post(path, body, { key: other.body.key, companyId: o.companyId });
      expect([path, res.status]).toEqual([path, 403]);
    }
  });

  test("another account's company is 404 for every report, and its own company shows none of ours", async () => {
    const stranger = await h.tenant();
    for (const [path, body] of [
      ["reports/trial-balance", { from: "2026-01-01", to: "2026-01-31" }],
      ["reports/general-ledger", { accountCode: "2710", from: "2026-01-01", to: "2026-01-31" }],
      ["reports/balance-sheet", { date: "2026-03-31" }],
      ["reports/profit-and-loss", { from: "2026-01-01", to: "2026-01-31" }],
    ] as const) {
      const res = await post(path, body, { key: stranger.apiKey, companyId: o.companyId });
      expect([path, res.status, res.body.error.code]).toEqual([path, 404, "not_found"]);
    }
    const own = { key: stranger.apiKey, companyId: stranger.companyId };
    expect((await post("reports/trial-balance", { from: "2020-01-01", to: "2030-12-31" }, own)).body.rows).toEqual([]);
    expect((await post("reports/balance-sheet", { date: "2030-12-31" }, own)).body.totalAssets).toBe("0.00");
    expect((await post("reports/general-ledger", { accountCode: "2710", from: "2020-01-01", to: "2030-12-31" }, own)).status).toBe(404);
  });
});
