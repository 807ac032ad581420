// partners/balances and partners/statement (issue 26): what each partner owes and is owed, from the ledger's balances
// per account, month and partner. A small case with every figure written by hand (invoices, a credit note, a debit
// note, bank payments, a purchase invoice, manual journals, a partner named on an income line that is no balance);
// then a journal of several months built from a seeded sequence of documents, payments, journals and reversals,
// compared at many dates and ranges (starting and ending mid-month, on first and last days of months) with a straight
// SQL aggregate over the journal entries computed here; and the refusals: tenancy, restricted keys, scopes, ranges.
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { Decimal } from "decimal.js";
import type { AccountingApi, ResponseData } from "../../sdk/typescript/src/index.js";
import { bankTransaction, bankWorld, lineOf, type BankWorld } from "../support/bank.js";
import { ltCompanyCode } from "../support/codes.js";
import { expectApiError, invalid } from "../support/expect.js";
import { startHarness, type Harness } from "../support/harness.js";
import { keyWith } from "../support/keys.js";
import { world } from "../support/world.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

type Statement = ResponseData<"partners_statement">;
type BalanceRow = ResponseData<"partners_balances">["rows"][number];

const money = (v: Decimal.Value) => new Decimal(v).toFixed(2);

/** The partner's receivable and payable at the end of `date` by a straight aggregate over the journal entries. */
async function sqlBalances(companyId: string, date: string, before = false): Promise<Map<string, { receivable: string; payable: string }>> {
  const { rows } = await h.db.raw<{ rows: { partner_code: string; receivable: string; payable: string }[] }>(
    `select e.partner_code,
            coalesce(sum(e.debit - e.credit) filter (where a.type = 'asset'), 0)::text as receivable,
            coalesce(sum(e.credit - e.debit) filter (where a.type = 'liability'), 0)::text as payable
       from journal_entries e
       join ledger_accounts a on a.company_id = e.company_id and a.code = e.account_code
      where e.company_id = ? and e.partner_code is not null and e.date ${before ? "<" : "<="} ?
      group by e.partner_code`,
    [companyId, date],
  );
  return new Map(rows.map((r) => [r.partner_code, { receivable: money(r.receivable), payable: money(r.payable) }]));
}

/** The partner's lines on asset and liability accounts in a range, as the statement must list them (SQL, posting order). */
async function sqlLines(companyId: string, partnerCode: string, from: string, to: string) {
  const { rows } = await h.db.raw<{ rows: { transaction_id: string; line_no: number; debit: string; credit: string }[] }>(
    `select e.transaction_id, e.line_no, e.debit::text, e.credit::text
       from journal_entries e
       join ledger_accounts a on a.company_id = e.company_id and a.code = e.account_code
       join journal_transactions t on t.company_id = e.company_id and t.id = e.transaction_id
      where e.company_id = ? and e.partner_code = ? and e.date between ? and ? and a.type in ('asset', 'liability')
      order by e.date, t.created_at, t.id, e.line_no`,
    [companyId, partnerCode, from, to],
  );
  return rows.map((r) => [r.transaction_id, r.line_no, money(r.debit), money(r.credit)]);
}

const figures = (receivable: string, payable: string) => ({ receivable, payable, balance: money(new Decimal(receivable).minus(payable)) });

/** Every row of partners/balances (all pages). */
async function allBalances(api: AccountingApi, body: Parameters<AccountingApi["partners"]["balances"]>[0]): Promise<BalanceRow[]> {
  const rows: BalanceRow[] = [];
  for (let page = 1; ; page++) {
    const res = await api.partners.balances({ ...body, page, pageSize: 2 });
    rows.push(...res.rows);
    if (rows.length >= res.total) return rows;
  }
}

// ---------------------------------------------------------------------------------------------------------
// The small case: every figure by hand.
// ---------------------------------------------------------------------------------------------------------

describe("a customer and a supplier over three months, every figure by hand", () => {
  let w: BankWorld;
  let ids: { pirkejas: string; tiekejas: string; sf1: string; sf2: string; ks1: string; ds1: string; pr1: string; late: string; pay1: string; pay2: string };

  beforeAll(async () => {
    w = await bankWorld(h);
    const sale = async (net: string, issueDate: string, over: Record<string, unknown> = {}) =>
      w.api.sales.invoices.issue({ id: (await w.api.sales.invoices.create({ partnerCode: "PIRKEJAS", issueDate, lines: [lineOf(net)], ...over })).id });
    // SF-1 2026-01-15 121.00; SF-2 2026-02-10 242.00; KS-1 2026-02-20 −60.50 on SF-2; DS-1 2026-03-12 12.10 on SF-2.
    const sf1 = await sale("100", "2026-01-15");
    const sf2 = await sale("200", "2026-02-10");
    const ks1 = await sale("50", "2026-02-20", { type: "credit_note", creditedInvoiceId: sf2.id });
    // PR-1 from the supplier, 2026-01-20: 363.00 payable.
    const pr1 = await w.api.purchases.invoices.register({
      id: (await w.api.purchases.invoices.create({ partnerCode: "TIEKEJAS", documentNumber: "PR-1", documentDate: "2026-01-20", lines: [lineOf("300")] })).id,
    });
    // A late fee by hand on the last day of February (2410 with the partner), and a line naming the customer on an
    // income account, which is no balance of the partner.
    const late = await w.api.ledger.journal.transactions.create({
      date: "2026-02-28",
      reference: "DELSP-1",
      entries: [
        { accountCode: "2410", debit: "5.00", partnerCode: "PIRKEJAS" },
        { accountCode: "5000", credit: "5.00" },
      ],
    });
    await w.api.ledger.journal.transactions.create({
      date: "2026-02-28",
      entries: [
        { accountCode: "2710", debit: "7.00" },
        { accountCode: "5000", credit: "7.00", partnerCode: "PIRKEJAS" },
      ],
    });
    // The customer pays SF-1 on 2026-03-05; the company pays PR-1 on 2026-03-25.
    const in1 = await bankTransaction(w, "121.00", { bookingDate: "2026-03-05" });
    const pay1 = await w.api.bank.transactions.match({ transactionId: in1.id, allocations: [{ saleInvoiceId: sf1.id, amount: "121.00" }] });
    const ds1 = await sale("10", "2026-03-12", { type: "debit_note", creditedInvoiceId: sf2.id });
    const out1 = await bankTransaction(w, "-363.00", { bookingDate: "2026-03-25" });
    const pay2 = await w.api.bank.transactions.match({ transactionId: out1.id, allocations: [{ purchaseInvoiceId: pr1.id, amount: "363.00" }] });
    const partners = await w.api.partners.list({});
    const idOf = (code: string) => partners.rows.find((p) => p.code === code)!.id;
    ids = {
      pirkejas: idOf("PIRKEJAS"),
      tiekejas: idOf("TIEKEJAS"),
      sf1: sf1.id,
      sf2: sf2.id,
      ks1: ks1.id,
      ds1: ds1.id,
      pr1: pr1.id,
      late: late.id,
      pay1: pay1.journalTransactionId!,
      pay2: pay2.journalTransactionId!,
    };
  });

  test.each([
    ["2025-12-31", "0.00", "0.00"],
    ["2026-01-15", "121.00", "0.00"],
    ["2026-01-31", "121.00", "363.00"],
    ["2026-02-15", "363.00", "363.00"],
    ["2026-02-28", "307.50", "363.00"],
    ["2026-03-10", "186.50", "363.00"],
    ["2026-03-31", "198.60", "0.00"],
  ])("on %s the customer owes %s and the company owes the supplier %s", async (asOf, receivable, payable) => {
    const res = await w.api.partners.balances({ asOf, includeZero: true, totals: ["receivable", "payable", "balance"] });
    expect(res.rows.map((r) => [r.code, r.receivable, r.payable, r.balance])).toEqual([
      ["PIRKEJAS", receivable, "0.00", receivable],
      ["TIEKEJAS", "0.00", payable, money(new Decimal(0).minus(payable))],
    ]);
    expect(res.totals).toEqual(figures(receivable, payable));
    expect(res.total).toBe(2);
    // The same as the entries summed one by one.
    const sql = await sqlBalances(w.companyId, asOf);
    expect(sql.get("PIRKEJAS") ?? { receivable: "0.00", payable: "0.00" }).toEqual({ receivable, payable: "0.00" });
    expect(sql.get("TIEKEJAS") ?? { receivable: "0.00", payable: "0.00" }).toEqual({ receivable: "0.00", payable });
  });

  test("without includeZero only partners with a balance are rows; a filter and a sort on the figures", async () => {
    const at = (asOf: string) => w.api.partners.balances({ asOf });
    expect((await at("2026-01-15")).rows.map((r) => r.code)).toEqual(["PIRKEJAS"]);
    expect((await at("2026-03-31")).rows.map((r) => r.code)).toEqual(["PIRKEJAS"]);
    expect((await at("2025-12-31")).rows).toEqual([]);
    const owing = await w.api.partners.balances({ asOf: "2026-02-28", filter: [{ field: "payable", op: "gte", value: "100" }] });
    expect(owing.rows.map((r) => [r.code, r.payable])).toEqual([["TIEKEJAS", "363.00"]]);
    const sorted = await w.api.partners.balances({ asOf: "2026-02-28", sort: [{ field: "balance", dir: "asc" }] });
    expect(sorted.rows.map((r) => [r.code, r.balance])).toEqual([
      ["TIEKEJAS", "-363.00"],
      ["PIRKEJAS", "307.50"],
    ]);
    // The rows carry the partner's identity.
    expect(sorted.rows[1]).toEqual({
      partnerId: ids.pirkejas,
      code: "PIRKEJAS",
      name: "Pirkėjas UAB",
      isCustomer: true,
      isSupplier: false,
      receivable: "307.50",
      payable: "0.00",
      balance: "307.50",
    });
  });

  test("partnerIds names the rows, with or without a balance", async () => {
    const res = await w.api.partners.balances({ asOf: "2026-01-15", partnerIds: [ids.tiekejas] });
    expect(res.rows.map((r) => [r.code, r.receivable, r.payable])).toEqual([["TIEKEJAS", "0.00", "0.00"]]);
    const both = await w.api.partners.balances({ asOf: "2026-03-10", partnerIds: [ids.tiekejas, ids.pirkejas], sort: [{ field: "code", dir: "desc" }] });
    expect(both.rows.map((r) => [r.code, r.balance])).toEqual([
      ["TIEKEJAS", "-363.00"],
      ["PIRKEJAS", "186.50"],
    ]);
  });

  test("the customer's statement from 11 February to 10 March: opening, the credit note, the late fee, the payment, closing", async () => {
    const s = await w.api.partners.statement({ partnerId: ids.pirkejas, from: "2026-02-11", to: "2026-03-10" });
    expect(s.partner).toEqual({ id: ids.pirkejas, code: "PIRKEJAS", name: "Pirkėjas UAB" });
    expect(s.opening).toEqual(figures("363.00", "0.00"));
    expect(s.lines.map((l) => [l.date, l.documentType, l.documentNumber, l.accountCode, l.side, l.debit, l.credit, l.balance])).toEqual([
      ["2026-02-20", "sale_credit_note", "KS-1", "2410", "receivable", "0.00", "60.50", "302.50"],
      ["2026-02-28", "manual", "DELSP-1", "2410", "receivable", "5.00", "0.00", "307.50"],
      ["2026-03-05", "payment", expect.any(String), "2410", "receivable", "0.00", "121.00", "186.50"],
    ]);
    expect(s.lines[0].source).toEqual({ type: "sale_credit_note", id: ids.ks1 });
    expect(s.lines[1]).toMatchObject({ source: null, transactionId: ids.late, lineNo: 1 });
    // The payment's line names the invoice it settles.
    expect(s.lines[2]).toMatchObject({ transactionId: ids.pay1, source: { type: "bank_transaction" }, description: "SF-1" });
    expect({ debit: s.debit, credit: s.credit, closing: s.closing, side: s.side }).toEqual({
      debit: "5.00",
      credit: "181.50",
      closing: figures("186.50", "0.00"),
      side: null,
    });
    // Closing = what partners/balances says on `to`.
    const [row] = (await w.api.partners.balances({ asOf: "2026-03-10", partnerIds: [ids.pirkejas] })).rows;
    expect([row.receivable, row.payable, row.balance]).toEqual([s.closing.receivable, s.closing.payable, s.closing.balance]);
  });

  test("the whole quarter of the customer: every document, a one-day range, and a range with no lines", async () => {
    const q = await w.api.partners.statement({ partnerId: ids.pirkejas, from: "2026-01-01", to: "2026-03-31" });
    expect(q.opening).toEqual(figures("0.00", "0.00"));
    expect(q.lines.map((l) => [l.date, l.documentType, l.debit, l.credit, l.balance])).toEqual([
      ["2026-01-15", "sale_invoice", "121.00", "0.00", "121.00"],
      ["2026-02-10", "sale_invoice", "242.00", "0.00", "363.00"],
      ["2026-02-20", "sale_credit_note", "0.00", "60.50", "302.50"],
      ["2026-02-28", "manual", "5.00", "0.00", "307.50"],
      ["2026-03-05", "payment", "0.00", "121.00", "186.50"],
      ["2026-03-12", "sale_debit_note", "12.10", "0.00", "198.60"],
    ]);
    expect(q.lines.map((l) => l.source?.id ?? null)).toEqual([ids.sf1, ids.sf2, ids.ks1, null, expect.any(String), ids.ds1]);
    expect(q.lines.map((l) => l.documentNumber)).toEqual(["SF-1", "SF-2", "KS-1", "DELSP-1", expect.any(String), "DS-1"]);
    expect([q.debit, q.credit, q.closing.balance]).toEqual(["380.10", "181.50", "198.60"]);

    const day = await w.api.partners.statement({ partnerId: ids.pirkejas, from: "2026-02-28", to: "2026-02-28" });
    expect([day.opening.balance, day.lines.length, day.closing.balance]).toEqual(["302.50", 1, "307.50"]);
    const none = await w.api.partners.statement({ partnerId: ids.pirkejas, from: "2026-04-01", to: "2026-06-30" });
    expect(none).toMatchObject({ opening: figures("198.60", "0.00"), lines: [], debit: "0.00", credit: "0.00", closing: figures("198.60", "0.00") });
  });

  test("the supplier's statement: the purchase invoice and its payment on the payable side; side picks one side", async () => {
    const s = await w.api.partners.statement({ partnerId: ids.tiekejas, from: "2026-01-16", to: "2026-03-31" });
    expect(s.lines.map((l) => [l.date, l.documentType, l.documentNumber, l.accountCode, l.side, l.debit, l.credit, l.balance])).toEqual([
      ["2026-01-20", "purchase_invoice", "PR-1", "4430", "payable", "0.00", "363.00", "-363.00"],
      ["2026-03-25", "payment", expect.any(String), "4430", "payable", "363.00", "0.00", "0.00"],
    ]);
    expect(s.lines.map((l) => l.source?.id)).toEqual([ids.pr1, expect.any(String)]);
    expect(s.lines[1].transactionId).toBe(ids.pay2);
    expect([s.opening, s.closing]).toEqual([figures("0.00", "0.00"), figures("0.00", "0.00")]);
    const mid = await w.api.partners.statement({ partnerId: ids.tiekejas, from: "2026-01-21", to: "2026-03-24" });
    expect([mid.opening, mid.lines, mid.closing]).toEqual([figures("0.00", "363.00"), [], figures("0.00", "363.00")]);

    const receivableOnly = await w.api.partners.statement({ partnerId: ids.tiekejas, from: "2026-01-01", to: "2026-03-31", side: "receivable" });
    expect([receivableOnly.side, receivableOnly.lines.length, receivableOnly.closing]).toEqual(["receivable", 0, figures("0.00", "0.00")]);
    const payableOnly = await w.api.partners.statement({ partnerId: ids.tiekejas, from: "2026-02-01", to: "2026-03-31", side: "payable" });
    expect([payableOnly.opening, payableOnly.lines.length, payableOnly.closing]).toEqual([figures("0.00", "363.00"), 1, figures("0.00", "0.00")]);
    const customerPayable = await w.api.partners.statement({ partnerId: ids.pirkejas, from: "2026-02-11", to: "2026-03-31", side: "payable" });
    expect([customerPayable.opening, customerPayable.lines, customerPayable.closing]).toEqual([figures("0.00", "0.00"), [], figures("0.00", "0.00")]);
  });

  test("reads write nothing", async () => {
    const count = async () =>
      Object.fromEntries(
        await Promise.all(
          ["journal_entries", "ledger_balances", "partners", "audit_log", "idempotency_keys"].map(async (t) => [
            t,
            Number((await h.db(t).count("* as n").first())!.n),
          ]),
        ),
      );
    const before = await count();
    await w.api.partners.balances({ asOf: "2026-03-31" });
    await w.api.partners.statement({ partnerId: ids.pirkejas, from: "2026-01-01", to: "2026-03-31" });
    expect(await count()).toEqual(before);
  });
});

// ---------------------------------------------------------------------------------------------------------
// Several months of documents, payments and journals, against the entries summed by SQL.
// ---------------------------------------------------------------------------------------------------------

/** mulberry32: a small seeded generator, so that a failure replays exactly. */
function seeded(seed: number) {
  let a = seed;
  const next = () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)), pick: <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)] };
}

const MONTHS = ["2025-11", "2025-12", "2026-01", "2026-02", "2026-03", "2026-04"];
const lastDay = (month: string) => new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)), 0)).toISOString().slice(0, 10);
const dayOf = (month: string, d: number | "last") => (d === "last" ? lastDay(month) : `${month}-${String(d).padStart(2, "0")}`);

describe.each([11, 29])("a journal of six months from seed %i against a straight aggregate", (seed) => {
  let w: BankWorld;
  const partnerIds: Record<string, string> = {};
  const CUSTOMERS = ["PIRKEJAS", "ABU"];
  const SUPPLIERS = ["TIEKEJAS", "ABU"];

  beforeAll(async () => {
    w = await bankWorld(h);
    await w.api.partners.create({ code: "ABU", name: "Abu UAB", isCustomer: true, isSupplier: true });
    await w.api.partners.create({ code: "TYLUS", name: "Tylus UAB" });
    for (const p of (await w.api.partners.list({})).rows) partnerIds[p.code] = p.id;
    const r = seeded(seed);
    const date = () => dayOf(r.pick(MONTHS), r.pick([1, 1, "last", "last", r.int(2, 27)] as const));
    const net = () => `${r.int(1, 2000)}.${String(r.int(0, 99)).padStart(2, "0")}`;
    const sales: { id: string; date: string; gross: Decimal; partner: string }[] = [];
    const purchases: { id: string; date: string; gross: Decimal }[] = [];
    const manual: { id: string; date: string }[] = [];
    let docNo = 0;
    for (let i = 0; i < 36; i++) {
      const kind = r.pick(["sale", "sale", "purchase", "credit", "debit", "payIn", "payOut", "journal", "journal", "reverse"] as const);
      if (kind === "sale") {
        const partnerCode = r.pick(CUSTOMERS);
        const d = date();
        const doc = await w.api.sales.invoices.issue({
          id: (await w.api.sales.invoices.create({ partnerCode, issueDate: d, lines: [lineOf(net())] })).id,
        });
        sales.push({ id: doc.id, date: d, gross: new Decimal(doc.grossTotal), partner: partnerCode });
      } else if (kind === "purchase") {
        const d = date();
        const doc = await w.api.purchases.invoices.register({
          id: (
            await w.api.purchases.invoices.create({
              partnerCode: r.pick(SUPPLIERS),
              documentNumber: `P-${seed}-${++docNo}`,
              documentDate: d,
              lines: [lineOf(net())],
            })
          ).id,
        });
        purchases.push({ id: doc.id, date: d, gross: new Decimal(doc.grossTotal) });
      } else if ((kind === "credit" || kind === "debit") && sales.length) {
        const target = r.pick(sales);
        const d = dayOf(target.date.slice(0, 7), "last");
        await w.api.sales.invoices.issue({
          id: (
            await w.api.sales.invoices.create({
              partnerCode: target.partner,
              issueDate: d,
              type: kind === "credit" ? "credit_note" : "debit_note",
              creditedInvoiceId: target.id,
              lines: [lineOf(kind === "credit" ? "1.00" : net())],
            })
          ).id,
        });
      } else if (kind === "payIn" && sales.length) {
        const target = sales.splice(r.int(0, sales.length - 1), 1)[0];
        // What is left after its credit and debit notes, in full or half of it.
        const outstanding = new Decimal((await w.api.sales.invoices.get({ id: target.id })).outstanding);
        if (outstanding.isZero()) continue;
        const part = outstanding.dividedBy(r.pick([1, 2])).toDecimalPlaces(2);
        const tx = await bankTransaction(w, part.toFixed(2), { bookingDate: dayOf(r.pick(MONTHS.filter((m) => m >= target.date.slice(0, 7))), r.int(1, 28)) });
        await w.api.bank.transactions.match({ transactionId: tx.id, allocations: [{ saleInvoiceId: target.id, amount: part.toFixed(2) }] });
      } else if (kind === "payOut" && purchases.length) {
        const target = purchases.splice(r.int(0, purchases.length - 1), 1)[0];
        const tx = await bankTransaction(w, target.gross.negated().toFixed(2), {
          bookingDate: dayOf(r.pick(MONTHS.filter((m) => m >= target.date.slice(0, 7))), "last"),
        });
        await w.api.bank.transactions.match({ transactionId: tx.id, allocations: [{ purchaseInvoiceId: target.id, amount: target.gross.toFixed(2) }] });
      } else if (kind === "journal") {
        const amount = net();
        const d = date();
        const partnerCode = r.pick(["PIRKEJAS", "TIEKEJAS", "ABU"]);
        // Receivable, payable, an advance received (4420, a liability), or a partner on an expense line (not a balance).
        const [a, b] = r.pick([
          ["2410", "5000"],
          ["6312", "4430"],
          ["2710", "4420"],
          ["6312", "2710"],
        ] as const);
        const t = await w.api.ledger.journal.transactions.create({
          date: d,
          entries: [
            { accountCode: a, debit: amount, partnerCode },
            { accountCode: b, credit: amount, ...(b === "2710" || b === "5000" ? {} : { partnerCode }) },
          ],
        });
        manual.push({ id: t.id, date: d });
      } else if (kind === "reverse" && manual.length) {
        const target = manual.splice(r.int(0, manual.length - 1), 1)[0];
        await w.api.ledger.journal.transactions.reverse({
          id: target.id,
          date: dayOf(r.pick(MONTHS.filter((m) => m >= target.date.slice(0, 7))), r.int(1, 28)),
        });
      }
    }
    // The journal has lines on both sides for most partners (a seed that did not would test too little).
    const kinds = await h.db("journal_entries").where({ company_id: w.companyId }).whereNotNull("partner_code").countDistinct("account_code as n").first();
    expect(Number(kinds!.n)).toBeGreaterThanOrEqual(3);
  }, 120_000);

  const DATES = [
    "2025-10-31",
    "2025-11-01",
    "2025-11-15",
    "2025-12-31",
    "2026-01-01",
    "2026-01-17",
    "2026-02-14",
    "2026-02-28",
    "2026-03-16",
    "2026-04-30",
    "2026-12-31",
  ];
  test.each(DATES)("balances on %s: every partner as the entries summed to that day", async (asOf) => {
    const sql = await sqlBalances(w.companyId, asOf);
    const rows = await allBalances(w.api, { asOf, includeZero: true, sort: [{ field: "code", dir: "asc" }], totals: ["receivable", "payable", "balance"] });
    expect(rows.map((r) => r.code)).toEqual(["ABU", "PIRKEJAS", "TIEKEJAS", "TYLUS"]);
    for (const row of rows) {
      const want = sql.get(row.code) ?? { receivable: "0.00", payable: "0.00" };
      expect([row.code, row.receivable, row.payable, row.balance]).toEqual([row.code, ...Object.values(figures(want.receivable, want.payable))]);
    }
    const nonZero = (await w.api.partners.balances({ asOf, pageSize: 500 })).rows.map((r) => r.code);
    expect(nonZero).toEqual(
      rows
        .filter((r) => r.receivable !== "0.00" || r.payable !== "0.00")
        .map((r) => r.code)
        .sort(),
    );
  });

  const RANGES: [string, string][] = [
    ["2025-11-01", "2026-04-30"],
    ["2025-11-14", "2026-01-20"],
    ["2025-12-31", "2026-03-01"],
    ["2026-01-02", "2026-01-30"],
    ["2026-02-01", "2026-02-28"],
    ["2026-02-15", "2026-04-14"],
    ["2026-03-31", "2026-04-01"],
  ];
  test.each(RANGES)("statements from %s to %s: opening, lines and closing as the entries say, closing = balances on `to`", async (from, to) => {
    const before = await sqlBalances(w.companyId, from, true);
    const after = await sqlBalances(w.companyId, to);
    for (const code of ["PIRKEJAS", "TIEKEJAS", "ABU", "TYLUS"]) {
      const s: Statement = await w.api.partners.statement({ partnerId: partnerIds[code], from, to });
      const open = before.get(code) ?? { receivable: "0.00", payable: "0.00" };
      const close = after.get(code) ?? { receivable: "0.00", payable: "0.00" };
      expect([code, s.opening]).toEqual([code, figures(open.receivable, open.payable)]);
      expect([code, s.closing]).toEqual([code, figures(close.receivable, close.payable)]);
      expect(s.lines.map((l) => [l.transactionId, l.lineNo, l.debit, l.credit])).toEqual(await sqlLines(w.companyId, code, from, to));
      // opening + debit − credit = closing, and the last running balance is the closing one.
      expect(money(new Decimal(s.opening.balance).plus(s.debit).minus(s.credit))).toBe(s.closing.balance);
      expect(s.lines.at(-1)?.balance ?? s.opening.balance).toBe(s.closing.balance);
      const [row] = (await w.api.partners.balances({ asOf: to, partnerIds: [partnerIds[code]] })).rows;
      expect([row.receivable, row.payable, row.balance]).toEqual([s.closing.receivable, s.closing.payable, s.closing.balance]);
    }
  });
});

// ---------------------------------------------------------------------------------------------------------
// Refusals: ranges, unknown and foreign partners, tenancy, restricted keys, scopes, too many lines.
// ---------------------------------------------------------------------------------------------------------

describe("refusals", () => {
  let w: Awaited<ReturnType<typeof world>>;
  let partnerId: string;
  beforeAll(async () => {
    w = await world(h, { partners: [{ code: "PIRKEJAS", name: "Pirkėjas UAB" }] });
    partnerId = (await w.api.partners.get({ code: "PIRKEJAS" })).id;
    await w.api.ledger.journal.transactions.create({
      date: "2026-03-10",
      entries: [
        { accountCode: "2410", debit: "50.00", partnerCode: "PIRKEJAS" },
        { accountCode: "5000", credit: "50.00" },
      ],
    });
  });

  test("a range ending before it starts is 400 naming `to`", async () => {
    const error = await expectApiError(w.api.partners.statement({ partnerId, from: "2026-03-02", to: "2026-03-01" }), 400, "validation");
    expect(Object.keys(error.fieldErrors ?? {})).toEqual(["to"]);
  });

  test.each([
    ["from before 2000", { from: "1999-12-31", to: "2026-03-01" }, "from"],
    ["to after 2100", { from: "2026-03-01", to: "2101-01-01" }, "to"],
    ["a date that does not exist", { from: "2026-02-30", to: "2026-03-01" }, "from"],
  ])("statement with %s: 400 naming the field", async (_name, range, field) => {
    const error = await expectApiError(w.api.partners.statement(invalid({ partnerId, ...range })), 400, "validation");
    expect(Object.keys(error.fieldErrors ?? {})).toContain(field);
  });

  test.each([
    ["asOf after 2100", { asOf: "2101-01-01" }, "asOf"],
    ["asOf before 2000", { asOf: "1999-12-31" }, "asOf"],
    ["partnerIds with a duplicate", { partnerIds: ["00000000-0000-4000-8000-000000000001", "00000000-0000-4000-8000-000000000001"] }, "partnerIds"],
    ["an empty partnerIds", { partnerIds: [] }, "partnerIds"],
  ])("balances with %s: 400 naming the field", async (_name, body, field) => {
    const error = await expectApiError(w.api.partners.balances(invalid(body)), 400, "validation");
    expect(Object.keys(error.fieldErrors ?? {}).some((k) => k.startsWith(field))).toBe(true);
  });

  test.each([
    ["a field that is not a list field", { filter: [{ field: "vatCode", op: "eq", value: "x" }] }, "request.invalid", "filter[0].field"],
    ["a total of a text field", { totals: ["name"] }, "request.invalid", "totals[0]"],
    ["an order on a boolean field", { filter: [{ field: "isCustomer", op: "gte", value: true }] }, "list.invalid", "filter[0].op"],
    ["a figure that is no number", { filter: [{ field: "balance", op: "lte", value: "daug" }] }, "list.invalid", "filter[0].value"],
  ])("balances with %s: 400 with its key, naming the element", async (_name, body, key, path) => {
    const error = await expectApiError(w.api.partners.balances(invalid(body)), 400, "validation", key);
    expect(Object.keys(error.fieldErrors ?? {})).toEqual([path]);
  });

  test("an unknown partner: statement 404 partner.not_found; balances 404 naming every unknown id", async () => {
    const unknown = "00000000-0000-4000-8000-0000000000aa";
    const error = await expectApiError(
      w.api.partners.statement({ partnerId: unknown, from: "2026-01-01", to: "2026-12-31" }),
      404,
      "not_found",
      "partner.not_found",
    );
    expect(error.params).toEqual({ id: unknown });
    const listed = await expectApiError(w.api.partners.balances({ partnerIds: [partnerId, unknown] }), 404, "not_found", "partner.not_found");
    expect(listed.params).toEqual({ ids: [unknown] });
  });

  test("another account's partner is unknown here, and its balances are not listed; its own are untouched", async () => {
    const other = await world(h, { partners: [{ code: "PIRKEJAS", name: "Svetimas UAB" }] });
    const foreign = await expectApiError(
      other.api.partners.statement({ partnerId, from: "2026-01-01", to: "2026-12-31" }),
      404,
      "not_found",
      "partner.not_found",
    );
    expect(foreign.params).toEqual({ id: partnerId });
    await expectApiError(other.api.partners.balances({ partnerIds: [partnerId] }), 404, "not_found", "partner.not_found");
    // The other company has a partner of the same code but no lines: nothing of ours shows through the code.
    expect((await other.api.partners.balances({ asOf: "2026-12-31", includeZero: true })).rows.map((r) => [r.code, r.receivable])).toEqual([
      ["PIRKEJAS", "0.00"],
    ]);
    const ownId = (await other.api.partners.get({ code: "PIRKEJAS" })).id;
    const own = await other.api.partners.statement({ partnerId: ownId, from: "2026-01-01", to: "2026-12-31" });
    expect([own.lines, own.closing.balance]).toEqual([[], "0.00"]);
    expect((await w.api.partners.balances({ asOf: "2026-12-31" })).rows.map((r) => [r.code, r.receivable])).toEqual([["PIRKEJAS", "50.00"]]);
  });

  test("a key restricted to a sibling company of the same account: 404 company.not_found for this company", async () => {
    const sibling = (await w.api.account.companies.create({ name: "Sesuo UAB", code: ltCompanyCode(), countryCode: "LT" })).id;
    const restricted = await keyWith(h, w.apiKey, ["*"], { companyIds: [sibling], companyId: w.companyId });
    await expectApiError(restricted.api.partners.balances({}), 404, "not_found", "company.not_found");
    await expectApiError(restricted.api.partners.statement({ partnerId, from: "2026-01-01", to: "2026-12-31" }), 404, "not_found", "company.not_found");
    // In its own company the partner id of this one is unknown.
    const inSibling = h.sdk(restricted.key, sibling);
    await expectApiError(inSibling.partners.statement({ partnerId, from: "2026-01-01", to: "2026-12-31" }), 404, "not_found", "partner.not_found");
  });

  test.each([
    ["partners:read", 200],
    ["partners:write", 200],
    ["ledger:read", 403],
    ["sales:write", 403],
  ] as const)("a key with only %s: %i", async (scope, status) => {
    const key = await keyWith(h, w.apiKey, [scope], { companyId: w.companyId });
    const calls = [
      () => key.api.partners.balances({ asOf: "2026-12-31" }),
      () => key.api.partners.statement({ partnerId, from: "2026-01-01", to: "2026-12-31" }),
    ];
    for (const call of calls) {
      if (status === 200) expect(await call()).toBeTruthy();
      else {
        const error = await expectApiError(call(), 403, "forbidden", "auth.scope_missing");
        expect(error.params).toEqual({ requiredScope: "partners:read" });
      }
    }
    if (status === 200) expect((await key.api.partners.balances({ asOf: "2026-12-31" })).rows.map((r) => r.receivable)).toEqual(["50.00"]);
  });

  test("at most 10,000 lines: 9,980 in a day are returned, 10,479 in two days are a 422", async () => {
    const t = await world(h, { partners: [{ code: "DAUG", name: "Daug UAB" }] });
    const id = (await t.api.partners.get({ code: "DAUG" })).id;
    const big = (date: string) => ({
      date,
      entries: [...Array.from({ length: 499 }, () => ({ accountCode: "2410", debit: "1.00", partnerCode: "DAUG" })), { accountCode: "5000", credit: "499.00" }],
    });
    for (let i = 0; i < 20; i++) await t.api.ledger.journal.transactions.create(big("2026-05-01"));
    await t.api.ledger.journal.transactions.create(big("2026-05-02"));
    const within = await t.api.partners.statement({ partnerId: id, from: "2026-05-01", to: "2026-05-01" });
    expect([within.lines.length, within.debit, within.closing.receivable, within.lines[9979].balance]).toEqual([9980, "9980.00", "9980.00", "9980.00"]);
    const error = await expectApiError(
      t.api.partners.statement({ partnerId: id, from: "2026-05-01", to: "2026-05-02" }),
      422,
      "unprocessable",
      "report.too_many_entries",
    );
    expect(error.params).toEqual({ limit: 10000 });
    expect((await t.api.partners.balances({ asOf: "2026-05-31" })).rows.map((r) => r.receivable)).toEqual(["10479.00"]);
  }, 120_000);
});
