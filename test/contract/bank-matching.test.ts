// bank/transactions/match and unmatch as tables of cases: exact, partial, several invoices, overpayment to an account,
// a supplier's invoice, a credit note refunded, FX gain and loss with their exact entries; refusals that leave
// nothing behind; unmatch (a reversal, figures restored); period locked; idempotency; tenancy and scopes; and the
// `sale_invoice.paid` event delivered to a local receiver exactly once.
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { Decimal } from "decimal.js";
import { createLogger } from "../../src/log.js";
import { startWorker, type Worker } from "../../src/worker.js";
import { expectApiError, invalid } from "../support/expect.js";
import { startHarness, type Harness } from "../support/harness.js";
import { startReceiver, type Receiver } from "../support/webhook-receiver.js";
import { agreeingPackage, booksWorld } from "../support/books.js";
import { bankTransaction, bankWorld, ibanOf, issuedSale, journalLines, registeredPurchase, type BankWorld } from "../support/bank.js";

let h: Harness;
let receiver: Receiver;
let worker: Worker;
beforeAll(async () => {
  receiver = await startReceiver();
  h = await startHarness({ config: { webhookAllowPrivateUrls: true, webhookRetrySchedule: [0, 200, 400], webhookTimeoutMs: 1500 } });
  worker = await startWorker(h.connectionString, 1, createLogger("silent"), { db: h.db, config: h.config });
}, 180_000);
afterAll(async () => {
  await worker.stop();
  await h.close();
  await receiver.close();
});

const CUSTOMER_IBAN = ibanOf("LT", "7044060001234567");
const figures = async (w: BankWorld, table: "sale_invoices" | "purchase_invoices", id: string) => {
  const row = await h.db(table).where({ company_id: w.companyId, id }).first("status", "paid_amount", "outstanding");
  return [row.status, row.paid_amount, row.outstanding];
};
const counts = async (w: BankWorld) => ({
  matches: (await h.db("bank_matches").where({ company_id: w.companyId })).length,
  allocations: (await h.db("bank_allocations").where({ company_id: w.companyId })).length,
  payments: (await h.db("journal_transactions").where({ company_id: w.companyId, document_type: "payment" })).length,
  paidEvents: (await h.db("webhook_events").where({ company_id: w.companyId }).whereIn("event_type", ["sale_invoice.paid", "purchase_invoice.paid"])).length,
});

interface Case {
  name: string;
  /** Makes the documents, the transaction and the allocations. */
  arrange(w: BankWorld): Promise<{ transactionId: string; allocations: any[]; docs: ["sale_invoices" | "purchase_invoices", string][] }>;
  lines: (string | null)[][];
  statuses: string[][];
  events: string[];
}

const cases: Case[] = [
  {
    name: "exact payment of a sales invoice",
    arrange: async (w) => {
      const inv = await issuedSale(w, "100");
      const tx = await bankTransaction(w, "121.00", { counterpartyIban: CUSTOMER_IBAN, remittanceInformation: inv.number });
      return { transactionId: tx.id, allocations: [{ saleInvoiceId: inv.id, amount: "121.00" }], docs: [["sale_invoices", inv.id]] };
    },
    lines: [
      ["2710", "121.00", "0.00", null],
      ["2410", "0.00", "121.00", "PIRKEJAS"],
    ],
    statuses: [["paid", "121.00", "0.00"]],
    events: ["sale_invoice.paid"],
  },
  {
    name: "part payment",
    arrange: async (w) => {
      const inv = await issuedSale(w, "100");
      const tx = await bankTransaction(w, "50.00");
      return { transactionId: tx.id, allocations: [{ saleInvoiceId: inv.id, amount: "50" }], docs: [["sale_invoices", inv.id]] };
    },
    lines: [
      ["2710", "50.00", "0.00", null],
      ["2410", "0.00", "50.00", "PIRKEJAS"],
    ],
    statuses: [["partially_paid", "50.00", "71.00"]],
    events: [],
  },
  {
    name: "several invoices in one payment",
    arrange: async (w) => {
      const a = await issuedSale(w, "100");
      const b = await issuedSale(w, "50");
      const tx = await bankTransaction(w, "181.50");
      return {
        transactionId: tx.id,
        allocations: [
          { saleInvoiceId: a.id, amount: "121.00" },
          { saleInvoiceId: b.id, amount: "60.50" },
        ],
        docs: [
          ["sale_invoices", a.id],
          ["sale_invoices", b.id],
        ],
      };
    },
    lines: [
      ["2710", "181.50", "0.00", null],
      ["2410", "0.00", "121.00", "PIRKEJAS"],
      ["2410", "0.00", "60.50", "PIRKEJAS"],
    ],
    statuses: [
      ["paid", "121.00", "0.00"],
      ["paid", "60.50", "0.00"],
    ],
    events: ["sale_invoice.paid", "sale_invoice.paid"],
  },
  {
    name: "overpayment kept as an advance on an account, a bank fee deducted",
    arrange: async (w) => {
      const inv = await issuedSale(w, "100");
      const tx = await bankTransaction(w, "129.50");
      return {
        transactionId: tx.id,
        allocations: [
          { saleInvoiceId: inv.id, amount: "121.00" },
          { accountCode: "4420", amount: "9.00" },
          { accountCode: "6314", amount: "-0.50" },
        ],
        docs: [["sale_invoices", inv.id]],
      };
    },
    lines: [
      ["2710", "129.50", "0.00", null],
      ["2410", "0.00", "121.00", "PIRKEJAS"],
      ["4420", "0.00", "9.00", null],
      ["6314", "0.50", "0.00", null],
    ],
    statuses: [["paid", "121.00", "0.00"]],
    events: ["sale_invoice.paid"],
  },
  {
    name: "a supplier's invoice paid",
    arrange: async (w) => {
      const inv = await registeredPurchase(w, "50");
      const tx = await bankTransaction(w, "-60.50");
      return { transactionId: tx.id, allocations: [{ purchaseInvoiceId: inv.id, amount: "60.50" }], docs: [["purchase_invoices", inv.id]] };
    },
    lines: [
      ["2710", "0.00", "60.50", null],
      ["4430", "60.50", "0.00", "TIEKEJAS"],
    ],
    statuses: [["paid", "60.50", "0.00"]],
    events: ["purchase_invoice.paid"],
  },
  {
    // A debit note raises what the buyer owes: money in settles it, as it does an invoice.
    name: "a sales debit note paid by the customer",
    arrange: async (w) => {
      const inv = await issuedSale(w, "100");
      const note = await issuedSale(w, "10", { type: "debit_note", creditedInvoiceId: inv.id, issueDate: "2026-03-05" });
      expect(note.outstanding).toBe("12.10");
      const tx = await bankTransaction(w, "12.10");
      return { transactionId: tx.id, allocations: [{ saleInvoiceId: note.id, amount: "12.10" }], docs: [["sale_invoices", note.id]] };
    },
    lines: [
      ["2710", "12.10", "0.00", null],
      ["2410", "0.00", "12.10", "PIRKEJAS"],
    ],
    statuses: [["paid", "12.10", "0.00"]],
    events: [],
  },
  {
    name: "a supplier's debit note paid",
    arrange: async (w) => {
      const inv = await registeredPurchase(w, "50");
      const note = await registeredPurchase(w, "5", { type: "debit_note", creditedInvoiceId: inv.id, documentDate: "2026-03-05" });
      const tx = await bankTransaction(w, "-6.05");
      return { transactionId: tx.id, allocations: [{ purchaseInvoiceId: note.id, amount: "6.05" }], docs: [["purchase_invoices", note.id]] };
    },
    lines: [
      ["2710", "0.00", "6.05", null],
      ["4430", "6.05", "0.00", "TIEKEJAS"],
    ],
    statuses: [["paid", "6.05", "0.00"]],
    events: [],
  },
  {
    name: "a credit note refunded to the customer after the invoice was paid",
    arrange: async (w) => {
      const inv = await issuedSale(w, "100");
      const paid = await bankTransaction(w, "121.00");
      await w.api.bank.transactions.match({ transactionId: paid.id, allocations: [{ saleInvoiceId: inv.id, amount: "121.00" }] });
      const draft = await w.api.sales.invoices.create({
        type: "credit_note",
        creditedInvoiceId: inv.id,
        partnerCode: "PIRKEJAS",
        issueDate: "2026-03-05",
        lines: [{ description: "Nuolaida", quantity: "1", unitPriceExclVat: "10", vatRatePercent: "21" }],
      });
      const note = await w.api.sales.invoices.issue({ id: draft.id });
      expect(note.outstanding).toBe("12.10");
      const refund = await bankTransaction(w, "-12.10");
      return {
        transactionId: refund.id,
        allocations: [{ saleInvoiceId: note.id, amount: "12.10" }],
        docs: [
          ["sale_invoices", note.id],
          ["sale_invoices", inv.id],
        ],
      };
    },
    lines: [
      ["2710", "0.00", "12.10", null],
      ["2410", "12.10", "0.00", "PIRKEJAS"],
    ],
    statuses: [
      ["paid", "12.10", "0.00"],
      ["paid", "121.00", "0.00"],
    ],
    // A credit note refunded is no invoice paid: no event.
    events: [],
  },
  {
    name: "an invoice offset by its open credit note in one payment",
    arrange: async (w) => {
      const inv = await issuedSale(w, "100");
      const other = await issuedSale(w, "50");
      const draft = await w.api.sales.invoices.create({
        type: "credit_note",
        creditedInvoiceId: other.id,
        partnerCode: "PIRKEJAS",
        issueDate: "2026-03-05",
        lines: [{ description: "Grąžinimas", quantity: "1", unitPriceExclVat: "50", vatRatePercent: "21" }],
      });
      await w.api.sales.invoices.issue({ id: draft.id });
      const tx = await bankTransaction(w, "121.00");
      return {
        transactionId: tx.id,
        allocations: [{ saleInvoiceId: inv.id, amount: "121.00" }],
        docs: [
          ["sale_invoices", inv.id],
          ["sale_invoices", other.id],
        ],
      };
    },
    lines: [
      ["2710", "121.00", "0.00", null],
      ["2410", "0.00", "121.00", "PIRKEJAS"],
    ],
    statuses: [
      ["paid", "121.00", "0.00"],
      ["credited", "0.00", "0.00"],
    ],
    events: ["sale_invoice.paid"],
  },
];

/** A USD invoice booked at 1.10 USD per EUR (121.00 USD = 110.00 EUR), paid from a USD account at `paymentRate`. */
const fxCase = (name: string, paymentRate: string, lines: (string | null)[][]): Case => ({
  name,
  arrange: async (w) => {
    await w.api.reference.exchangeRates.set({ currency: "USD", date: "2026-03-02", rate: "1.1" });
    await w.api.reference.exchangeRates.set({ currency: "USD", date: "2026-03-20", rate: paymentRate });
    const usd = await w.api.bank.accounts.create({ name: "Swedbank USD", iban: ibanOf("LT", "7300010000000777"), currency: "USD", ledgerAccountCode: "2711" });
    const inv = await issuedSale(w, "100", { currency: "USD" });
    expect(inv.grossTotalEur).toBe("110.00");
    const tx = await bankTransaction(w, "121.00", {}, usd.id);
    expect(tx.currency).toBe("USD");
    return { transactionId: tx.id, allocations: [{ saleInvoiceId: inv.id, amount: "121.00" }], docs: [["sale_invoices", inv.id]] };
  },
  lines,
  statuses: [["paid", "121.00", "0.00"]],
  events: ["sale_invoice.paid"],
});
cases.push(
  fxCase("FX gain: the dollar is worth more when paid (1.00) than when invoiced (1.10)", "1", [
    ["2711", "121.00", "0.00", null],
    ["2410", "0.00", "110.00", "PIRKEJAS"],
    ["5803", "0.00", "11.00", null],
  ]),
  fxCase("FX loss: the dollar is worth less when paid (1.25)", "1.25", [
    ["2711", "96.80", "0.00", null],
    ["2410", "0.00", "110.00", "PIRKEJAS"],
    ["6803", "13.20", "0.00", null],
  ]),
);

describe("match", () => {
  test.each(cases.map((c) => [c.name, c] as const))("%s", async (_name, c) => {
    const w = await bankWorld(h);
    const { transactionId, allocations, docs } = await c.arrange(w);
    const before = await counts(w);
    const matched = await w.api.bank.transactions.match({ transactionId, allocations });
    expect(matched.status).toBe("matched");
    expect(matched.allocations.map((a) => [a.saleInvoiceId ?? a.purchaseInvoiceId ?? a.accountCode, a.amount])).toEqual(
      allocations.map((a) => [
        a.saleInvoiceId ?? a.purchaseInvoiceId ?? a.accountCode,
        new Decimal(a.amount).times(a.purchaseInvoiceId || (a.saleInvoiceId && new Decimal(matched.amount).isNegative()) ? -1 : 1).toFixed(2),
      ]),
    );
    expect(await journalLines(h, w.companyId, matched.journalTransactionId)).toEqual(c.lines);
    const header = await h
      .db("journal_transactions")
      .where({ company_id: w.companyId, id: matched.journalTransactionId })
      .first("document_type", "date", "source_type", "source_id");
    expect(header).toEqual({ document_type: "payment", date: "2026-03-20", source_type: "bank_transaction", source_id: transactionId });
    expect(await Promise.all(docs.map(([table, id]) => figures(w, table, id)))).toEqual(c.statuses);
    const events = await h
      .db("webhook_events")
      .where({ company_id: w.companyId })
      .whereIn("event_type", ["sale_invoice.paid", "purchase_invoice.paid"])
      .orderBy("seq")
      .pluck("event_type");
    expect(events.slice(before.paidEvents)).toEqual(c.events);
    expect(await w.api.bank.transactions.get({ id: transactionId })).toEqual(matched);
  });

  test("the counterparty's IBAN is remembered for the partner", async () => {
    const w = await bankWorld(h);
    const inv = await issuedSale(w, "100");
    const tx = await bankTransaction(w, "121.00", { counterpartyIban: ibanOf("LT", "2140300000000123") });
    await w.api.bank.transactions.match({ transactionId: tx.id, allocations: [{ saleInvoiceId: inv.id, amount: "121.00" }] });
    expect(await h.db("partner_bank_ibans").where({ company_id: w.companyId }).select("partner_code", "iban", "matches")).toEqual([
      { partner_code: "PIRKEJAS", iban: ibanOf("LT", "2140300000000123"), matches: 1 },
    ]);
  });

  type Refusal = [string, (w: BankWorld, other: BankWorld) => Promise<{ transactionId: string; allocations: any[] }>, number, string, string];
  const refusals: Refusal[] = [
    [
      "allocations that do not add up",
      async (w) => ({
        transactionId: (await bankTransaction(w, "121.00")).id,
        allocations: [{ saleInvoiceId: (await issuedSale(w, "100")).id, amount: "100.00" }],
      }),
      422,
      "unprocessable",
      "bank_match.sum_mismatch",
    ],
    [
      "more than is outstanding",
      async (w) => ({
        transactionId: (await bankTransaction(w, "200.00")).id,
        allocations: [{ saleInvoiceId: (await issuedSale(w, "100")).id, amount: "200.00" }],
      }),
      422,
      "unprocessable",
      "bank_match.exceeds_outstanding",
    ],
    [
      "a draft invoice",
      async (w) => ({
        transactionId: (await bankTransaction(w, "121.00")).id,
        allocations: [
          {
            saleInvoiceId: (
              await w.api.sales.invoices.create({
                partnerCode: "PIRKEJAS",
                lines: [{ description: "X", quantity: "1", unitPriceExclVat: "100", vatRatePercent: "21" }],
              })
            ).id,
            amount: "121.00",
          },
        ],
      }),
      422,
      "unprocessable",
      "bank_match.document_invalid",
    ],
    [
      "another company's invoice",
      async (w, other) => ({
        transactionId: (await bankTransaction(w, "121.00")).id,
        allocations: [{ saleInvoiceId: (await issuedSale(other, "100")).id, amount: "121.00" }],
      }),
      422,
      "unprocessable",
      "bank_match.document_invalid",
    ],
    [
      "a header account",
      async (w) => ({ transactionId: (await bankTransaction(w, "10.00")).id, allocations: [{ accountCode: "44", amount: "10.00" }] }),
      422,
      "unprocessable",
      "bank_match.account_invalid",
    ],
    // It would post 2710 D 100.00 / 2710 C 100.00 and take the transaction off the unmatched list, settling nothing.
    [
      "the bank account's own ledger account",
      async (w) => ({ transactionId: (await bankTransaction(w, "100.00")).id, allocations: [{ accountCode: w.account.ledgerAccountCode, amount: "100.00" }] }),
      422,
      "unprocessable",
      "bank_match.account_invalid",
    ],
    [
      "an invoice in another currency",
      async (w) => {
        await w.api.reference.exchangeRates.set({ currency: "USD", date: "2026-03-02", rate: "1.1" });
        return {
          transactionId: (await bankTransaction(w, "121.00")).id,
          allocations: [{ saleInvoiceId: (await issuedSale(w, "100", { currency: "USD" })).id, amount: "121.00" }],
        };
      },
      422,
      "unprocessable",
      "bank_match.currency_mismatch",
    ],
    [
      "an allocation naming two targets",
      async (w) => ({
        transactionId: (await bankTransaction(w, "121.00")).id,
        allocations: [{ saleInvoiceId: (await issuedSale(w, "100")).id, accountCode: "4420", amount: "121.00" }],
      }),
      400,
      "validation",
      "request.invalid",
    ],
    [
      "another company's transaction",
      async (w, other) => ({
        transactionId: (await bankTransaction(other, "121.00")).id,
        allocations: [{ saleInvoiceId: (await issuedSale(w, "100")).id, amount: "121.00" }],
      }),
      404,
      "not_found",
      "bank_transaction.not_found",
    ],
    [
      "an ignored transaction",
      async (w) => {
        const tx = await bankTransaction(w, "121.00");
        await w.api.bank.transactions.ignore({ id: tx.id });
        return { transactionId: tx.id, allocations: [{ saleInvoiceId: (await issuedSale(w, "100")).id, amount: "121.00" }] };
      },
      409,
      "conflict",
      "bank_transaction.ignored",
    ],
    [
      "a booking date in a locked month",
      async (w) => {
        const inv = await issuedSale(w, "100");
        const tx = await bankTransaction(w, "121.00");
        await w.api.ledger.periods.lock({ month: "2026-03" });
        return { transactionId: tx.id, allocations: [{ saleInvoiceId: inv.id, amount: "121.00" }] };
      },
      409,
      "conflict",
      "period.locked",
    ],
  ];
  test.each(refusals)("%s -> refused, nothing stored", async (_name, arrange, status, code, key) => {
    const w = await bankWorld(h);
    const other = await bankWorld(h);
    const body = await arrange(w, other);
    const invoices = await h
      .db("sale_invoices")
      .whereIn("company_id", [w.companyId, other.companyId])
      .orderBy("id")
      .select("id", "status", "paid_amount", "outstanding");
    const error = await expectApiError(w.api.bank.transactions.match(invalid(body)), status, code, key);
    if (status === 422 && key !== "bank_match.sum_mismatch")
      expect(Object.keys(error.fieldErrors ?? {})).toEqual([expect.stringMatching(/^allocations\[0\]\./)]);
    expect(await counts(w)).toEqual({ matches: 0, allocations: 0, payments: 0, paidEvents: 0 });
    expect(await counts(other)).toEqual({ matches: 0, allocations: 0, payments: 0, paidEvents: 0 });
    expect(
      await h.db("sale_invoices").whereIn("company_id", [w.companyId, other.companyId]).orderBy("id").select("id", "status", "paid_amount", "outstanding"),
    ).toEqual(invoices);
    expect(await h.db("bank_transactions").where({ company_id: w.companyId, status: "matched" })).toEqual([]);
  });

  test("a transaction matched already is 409; the same Idempotency-Key replays the first answer", async () => {
    const w = await bankWorld(h);
    const inv = await issuedSale(w, "50");
    const tx = await bankTransaction(w, "60.50");
    const body = { transactionId: tx.id, allocations: [{ saleInvoiceId: inv.id, amount: "60.50" }] };
    const first = await w.api.bank.transactions.match.withResponse(body, { idempotencyKey: "match-1" });
    const again = await w.api.bank.transactions.match.withResponse(body, { idempotencyKey: "match-1" });
    expect(again.response.headers.get("x-idempotent-replay")).toBe("true");
    expect(again.data).toEqual(first.data);
    await expectApiError(w.api.bank.transactions.match(body), 409, "conflict", "bank_transaction.already_matched");
    expect(await counts(w)).toEqual({ matches: 1, allocations: 1, payments: 1, paidEvents: 1 });
  });

  test("scopes: bank:read cannot match; sales:write cannot either", async () => {
    const w = await bankWorld(h);
    const inv = await issuedSale(w, "50");
    const tx = await bankTransaction(w, "60.50");
    for (const scope of ["bank:read", "sales:write"]) {
      const key = await w.api.account.apiKeys.create({ name: scope, scopes: [scope] });
      await expectApiError(
        h.sdk(key.key, w.companyId).bank.transactions.match({ transactionId: tx.id, allocations: [{ saleInvoiceId: inv.id, amount: "60.50" }] }),
        403,
        "forbidden",
        "auth.scope_missing",
      );
    }
    expect(await counts(w)).toEqual({ matches: 0, allocations: 0, payments: 0, paidEvents: 0 });
  });
});

describe("FX", () => {
  test("a USD invoice paid in two parts: the part payment clears its EUR at the invoice's rate, the final one what is left of it, so the receivable reaches exactly zero", async () => {
    const w = await bankWorld(h);
    await w.api.reference.exchangeRates.set({ currency: "USD", date: "2026-03-02", rate: "1.3" });
    await w.api.reference.exchangeRates.set({ currency: "USD", date: "2026-03-10", rate: "1.25" });
    await w.api.reference.exchangeRates.set({ currency: "USD", date: "2026-03-20", rate: "1.25" });
    const usd = await w.api.bank.accounts.create({ name: "Swedbank USD", iban: ibanOf("LT", "7300010000000778"), currency: "USD", ledgerAccountCode: "2711" });
    const inv = await issuedSale(w, "100", { currency: "USD" });
    // 121.00 USD / 1.3 = 93.0769...: 93.08 EUR receivable.
    expect([inv.grossTotal, inv.grossTotalEur]).toEqual(["121.00", "93.08"]);

    const part = await bankTransaction(w, "10.00", { bookingDate: "2026-03-10" }, usd.id);
    const first = await w.api.bank.transactions.match({ transactionId: part.id, allocations: [{ saleInvoiceId: inv.id, amount: "10.00" }] });
    // 10.00 / 1.3 = 7.69 of the receivable; the bank got 10.00 / 1.25 = 8.00; the 0.31 is a realized gain.
    expect(await journalLines(h, w.companyId, first.journalTransactionId)).toEqual([
      ["2711", "8.00", "0.00", null],
      ["2410", "0.00", "7.69", "PIRKEJAS"],
      ["5803", "0.00", "0.31", null],
    ]);

    const rest = await bankTransaction(w, "111.00", { bookingDate: "2026-03-20" }, usd.id);
    const last = await w.api.bank.transactions.match({ transactionId: rest.id, allocations: [{ saleInvoiceId: inv.id, amount: "111.00" }] });
    // At the invoice's rate 111.00 / 1.3 = 85.38, but what is left of the receivable is 93.08 - 7.69 = 85.39: the final
    // payment clears that; 111.00 / 1.25 = 88.80 in the bank, 3.41 gain.
    expect(await journalLines(h, w.companyId, last.journalTransactionId)).toEqual([
      ["2711", "88.80", "0.00", null],
      ["2410", "0.00", "85.39", "PIRKEJAS"],
      ["5803", "0.00", "3.41", null],
    ]);
    expect(last.allocations.map((a) => [a.amount, a.amountEur])).toEqual([["111.00", "85.39"]]);
    expect(await figures(w, "sale_invoices", inv.id)).toEqual(["paid", "121.00", "0.00"]);
    const [receivable] = await h
      .db("journal_entries")
      .where({ company_id: w.companyId, account_code: "2410", partner_code: "PIRKEJAS" })
      .select(h.db.raw("sum(debit)::text as debit, sum(credit)::text as credit"));
    expect(receivable).toEqual({ debit: "93.08", credit: "93.08" });
  });

  test("a transaction stored in another currency than its bank account (before imports refused that) is not posted to the account", async () => {
    const w = await bankWorld(h);
    await w.api.reference.exchangeRates.set({ currency: "USD", date: "2026-03-02", rate: "1.1" });
    const inv = await issuedSale(w, "100", { currency: "USD" });
    const [tx] = await h
      .db("bank_transactions")
      .insert({
        company_id: w.companyId,
        bank_account_id: w.account.id,
        booking_date: "2026-03-20",
        amount: "121.00",
        currency: "USD",
        dedupe_key: "legacy-usd",
      })
      .returning("id");
    const error = await expectApiError(
      w.api.bank.transactions.match({ transactionId: tx.id, allocations: [{ saleInvoiceId: inv.id, amount: "121.00" }] }),
      422,
      "unprocessable",
      "bank_match.currency_mismatch",
    );
    expect(error.params).toEqual({ transactionCurrency: "USD", accountCurrency: "EUR" });
    expect(await counts(w)).toEqual({ matches: 0, allocations: 0, payments: 0, paidEvents: 0 });
    expect(await figures(w, "sale_invoices", inv.id)).toEqual(["issued", "0.00", "121.00"]);
  });
});

describe("unmatch", () => {
  test("tenancy: another company's unmatch is 404 and changes nothing", async () => {
    const w = await bankWorld(h);
    const other = await bankWorld(h);
    const inv = await issuedSale(w, "100");
    const tx = await bankTransaction(w, "121.00");
    const matched = await w.api.bank.transactions.match({ transactionId: tx.id, allocations: [{ saleInvoiceId: inv.id, amount: "121.00" }] });
    await expectApiError(other.api.bank.transactions.unmatch({ transactionId: tx.id }), 404, "not_found", "bank_transaction.not_found");
    expect(await w.api.bank.transactions.get({ id: tx.id })).toEqual(matched);
    expect(await figures(w, "sale_invoices", inv.id)).toEqual(["paid", "121.00", "0.00"]);
    expect(await h.db("journal_transactions").whereIn("company_id", [w.companyId, other.companyId]).where({ document_type: "reversal" })).toEqual([]);
    expect(await h.db("bank_matches").where({ company_id: w.companyId }).pluck("unmatched_at")).toEqual([null]);
  });

  test("posts the reversal of the payment and restores the invoices; the transaction can be matched again", async () => {
    const w = await bankWorld(h);
    const a = await issuedSale(w, "100");
    const b = await issuedSale(w, "50");
    const early = await bankTransaction(w, "21.00");
    await w.api.bank.transactions.match({ transactionId: early.id, allocations: [{ saleInvoiceId: a.id, amount: "21.00" }] });
    const tx = await bankTransaction(w, "160.50");
    const matched = await w.api.bank.transactions.match({
      transactionId: tx.id,
      allocations: [
        { saleInvoiceId: a.id, amount: "100.00" },
        { saleInvoiceId: b.id, amount: "60.50" },
      ],
    });
    expect([await figures(w, "sale_invoices", a.id), await figures(w, "sale_invoices", b.id)]).toEqual([
      ["paid", "121.00", "0.00"],
      ["paid", "60.50", "0.00"],
    ]);

    const unmatched = await w.api.bank.transactions.unmatch({ transactionId: tx.id });
    expect(unmatched).toMatchObject({ status: "unmatched", journalTransactionId: null, allocations: [] });
    expect([await figures(w, "sale_invoices", a.id), await figures(w, "sale_invoices", b.id)]).toEqual([
      ["partially_paid", "21.00", "100.00"],
      ["issued", "0.00", "60.50"],
    ]);
    const reversal = await h
      .db("journal_transactions")
      .where({ company_id: w.companyId, reverses_id: matched.journalTransactionId })
      .first("id", "document_type", "date");
    expect(reversal).toMatchObject({ document_type: "reversal", date: "2026-03-20" });
    expect(await journalLines(h, w.companyId, reversal.id)).toEqual([
      ["2710", "0.00", "160.50", null],
      ["2410", "100.00", "0.00", "PIRKEJAS"],
      ["2410", "60.50", "0.00", "PIRKEJAS"],
    ]);
    expect(
      await h.db("bank_matches").where({ company_id: w.companyId, transaction_id: tx.id }).first("unmatched_at", "reversal_journal_transaction_id"),
    ).toMatchObject({ reversal_journal_transaction_id: reversal.id });
    // The original posting is untouched.
    expect(await journalLines(h, w.companyId, matched.journalTransactionId)).toEqual([
      ["2710", "160.50", "0.00", null],
      ["2410", "0.00", "100.00", "PIRKEJAS"],
      ["2410", "0.00", "60.50", "PIRKEJAS"],
    ]);

    await expectApiError(w.api.bank.transactions.unmatch({ transactionId: tx.id }), 409, "conflict", "bank_transaction.not_matched");
    const again = await w.api.bank.transactions.match({
      transactionId: tx.id,
      allocations: [
        { saleInvoiceId: b.id, amount: "60.50" },
        { accountCode: "4420", amount: "100.00" },
      ],
    });
    expect(again.status).toBe("matched");
    expect(await figures(w, "sale_invoices", b.id)).toEqual(["paid", "60.50", "0.00"]);
    // b was completed by two payments (the first one unmatched) but is announced paid once; a once.
    expect((await h.db("webhook_events").where({ company_id: w.companyId, event_type: "sale_invoice.paid" })).map((e) => e.data.saleInvoiceId).sort()).toEqual(
      [a.id, b.id].sort(),
    );
    expect(await h.db("bank_allocations").where({ company_id: w.companyId, sale_invoice_id: b.id, announced_paid: true }).pluck("match_id")).toEqual([
      (await h.db("bank_matches").where({ company_id: w.companyId, journal_transaction_id: matched.journalTransactionId }).first("id")).id,
    ]);
  });

  test("a reversal dated before the payment's booking date is 422 naming date, and nothing changes; dated on it, it is posted", async () => {
    const w = await bankWorld(h);
    const inv = await issuedSale(w, "100");
    const tx = await bankTransaction(w, "121.00", { bookingDate: "2026-03-20" });
    const matched = await w.api.bank.transactions.match({ transactionId: tx.id, allocations: [{ saleInvoiceId: inv.id, amount: "121.00" }] });
    const error = await expectApiError(
      w.api.bank.transactions.unmatch({ transactionId: tx.id, date: "2026-03-19" }),
      422,
      "unprocessable",
      "bank_match.reversal_before_payment",
    );
    expect([error.params, error.fieldErrors]).toEqual([
      { date: "2026-03-19", bookingDate: "2026-03-20" },
      { date: ["is before the payment's booking date 2026-03-20"] },
    ]);
    expect(await w.api.bank.transactions.get({ id: tx.id })).toEqual(matched);
    expect(await figures(w, "sale_invoices", inv.id)).toEqual(["paid", "121.00", "0.00"]);
    expect(await h.db("journal_transactions").where({ company_id: w.companyId, document_type: "reversal" })).toEqual([]);
    expect(await h.db("bank_matches").where({ company_id: w.companyId }).select("unmatched_at", "reversal_journal_transaction_id")).toEqual([
      { unmatched_at: null, reversal_journal_transaction_id: null },
    ]);

    expect(await w.api.bank.transactions.unmatch({ transactionId: tx.id, date: "2026-03-20" })).toMatchObject({ status: "unmatched" });
    expect(await h.db("journal_transactions").where({ company_id: w.companyId, document_type: "reversal" }).pluck("date")).toEqual(["2026-03-20"]);
  });

  test("in a locked month the reversal is 409 unless dated in an open one; an ignored transaction becomes unmatched", async () => {
    const w = await bankWorld(h);
    const inv = await issuedSale(w, "100");
    const tx = await bankTransaction(w, "121.00");
    await w.api.bank.transactions.match({ transactionId: tx.id, allocations: [{ saleInvoiceId: inv.id, amount: "121.00" }] });
    await w.api.ledger.periods.lock({ month: "2026-03" });
    await expectApiError(w.api.bank.transactions.unmatch({ transactionId: tx.id }), 409, "conflict", "period.locked");
    expect(await figures(w, "sale_invoices", inv.id)).toEqual(["paid", "121.00", "0.00"]);
    const done = await w.api.bank.transactions.unmatch({ transactionId: tx.id, date: "2026-04-01" });
    expect(done.status).toBe("unmatched");
    expect(await figures(w, "sale_invoices", inv.id)).toEqual(["issued", "0.00", "121.00"]);

    const fee = await bankTransaction(w, "-1.00");
    await w.api.bank.transactions.ignore({ id: fee.id, reason: "x" });
    expect(await w.api.bank.transactions.unmatch({ transactionId: fee.id })).toMatchObject({ status: "unmatched", ignoredReason: null });
  });
});

describe("sale_invoice.paid", () => {
  test("an open receivable imported by the migration: a part payment and its unmatch leave it issued as imported, the payment of the rest announces it paid once", async () => {
    const books = await booksWorld(h);
    await books.api.migration.books.import(agreeingPackage());
    const account = await books.api.bank.accounts.create({ name: "SEB EUR", iban: ibanOf("LT", "7070440000000077"), bic: "CBVILT2X" });
    const w: BankWorld = { companyId: books.companyId, apiKey: books.apiKey, api: books.api, account };
    const invoice = await h.db("sale_invoices").where({ company_id: w.companyId, number: "SF-42" }).first("id", "migrated");
    expect(invoice.migrated).toBe(true);
    expect(await figures(w, "sale_invoices", invoice.id)).toEqual(["issued", "305.00", "300.00"]);

    const part = await bankTransaction(w, "100.00", { bookingDate: "2026-07-15" });
    await w.api.bank.transactions.match({ transactionId: part.id, allocations: [{ saleInvoiceId: invoice.id, amount: "100.00" }] });
    expect(await figures(w, "sale_invoices", invoice.id)).toEqual(["partially_paid", "405.00", "200.00"]);
    await w.api.bank.transactions.unmatch({ transactionId: part.id });
    expect(await figures(w, "sale_invoices", invoice.id)).toEqual(["issued", "305.00", "300.00"]);

    const rest = await bankTransaction(w, "300.00", { bookingDate: "2026-07-20" });
    await w.api.bank.transactions.match({ transactionId: rest.id, allocations: [{ saleInvoiceId: invoice.id, amount: "300.00" }] });
    expect(await figures(w, "sale_invoices", invoice.id)).toEqual(["paid", "605.00", "0.00"]);
    const paid = await h.db("webhook_events").where({ company_id: w.companyId, event_type: "sale_invoice.paid" });
    expect(paid.map((e) => [e.data.saleInvoiceId, e.data.number, e.data.paidAmount])).toEqual([[invoice.id, "SF-42", "605.00"]]);
  });

  test("is delivered to a subscriber exactly once, when the last part payment completes the invoice", async () => {
    const w = await bankWorld(h);
    const sub = await w.api.webhooks.subscriptions.create({ url: receiver.url("/bank/paid"), eventTypes: ["sale_invoice.paid"] });
    const inv = await issuedSale(w, "100");
    const first = await bankTransaction(w, "21.00");
    await w.api.bank.transactions.match({ transactionId: first.id, allocations: [{ saleInvoiceId: inv.id, amount: "21.00" }] });
    const second = await bankTransaction(w, "100.00");
    await w.api.bank.transactions.match({ transactionId: second.id, allocations: [{ saleInvoiceId: inv.id, amount: "100.00" }] });
    const [delivery] = await receiver.waitFor("/bank/paid", 1);
    expect(delivery.json).toMatchObject({
      eventType: "sale_invoice.paid",
      companyId: w.companyId,
      data: { saleInvoiceId: inv.id, number: inv.number, currency: "EUR", grossTotal: "121.00", paidAmount: "121.00" },
    });
    // Nothing more arrives: the worker has nothing left for this subscription.
    await new Promise((r) => setTimeout(r, 1000));
    expect(receiver.received("/bank/paid")).toHaveLength(1);
    expect(await h.db("webhook_deliveries").where({ company_id: w.companyId, subscription_id: sub.id }).pluck("status")).toEqual(["succeeded"]);
  });
});
