// bank/transactions/suggest-matches: candidates ranked by score with their reasons — the invoice number in the text,
// the RF creditor reference, the exact amount, the counterparty IBAN known for the partner (its own, or learnt from
// an earlier match), the counterparty's name — for money in and money out; tenancy.
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { expectApiError } from "../support/expect.js";
import { startHarness, type Harness } from "../support/harness.js";
import { bankTransaction, bankWorld, ibanOf, issuedSale, registeredPurchase, type BankWorld } from "../support/bank.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
}, 180_000);
afterAll(() => h.close());

const CUSTOMER_IBAN = ibanOf("LT", "7044060001234567");
const STRANGER_IBAN = ibanOf("LT", "2140300000000999");

/** ISO 11649 creditor reference of `ref`. */
function rf(ref: string): string {
  let remainder = 0;
  for (const ch of `${ref}RF00`) {
    const digits = /[0-9]/.test(ch) ? ch : String(ch.charCodeAt(0) - 55);
    for (const d of digits) remainder = (remainder * 10 + Number(d)) % 97;
  }
  return `RF${String(98 - remainder).padStart(2, "0")}${ref}`;
}

interface World extends BankWorld {
  pirkejas: { id: string; number: string | null };
  kitas: { id: string; number: string | null };
  jonas: { id: string; number: string | null };
  supplier: { id: string; documentNumber: string };
}

async function world(): Promise<World> {
  const w = await bankWorld(h);
  await w.api.partners.create({ code: "KITAS", name: "Kitas pirkėjas UAB", isCustomer: true });
  await w.api.partners.create({ code: "JONAS", name: "Jonas Jonaitis", isCustomer: true, isPrivatePerson: true });
  const pirkejas = await issuedSale(w, "100", { dueDate: "2026-03-16" });
  const kitas = await issuedSale(w, "100", { partnerCode: "KITAS", dueDate: "2026-03-20" });
  const jonas = await issuedSale(w, "50", { partnerCode: "JONAS" });
  const supplier = await registeredPurchase(w, "50", { documentNumber: "TK-7781" });
  return { ...w, pirkejas, kitas, jonas, supplier };
}

const ranked = async (w: World, transactionId: string) =>
  (await w.api.bank.transactions.suggestMatches({ transactionId })).candidates.map((c) => [c.saleInvoiceId ?? c.purchaseInvoiceId, c.kind, c.score, c.reasons]);

describe("suggest-matches", () => {
  test("ranks by the reasons found, each with its weight", async () => {
    const w = await world();
    const cases: [string, Record<string, unknown>, (string | number | string[])[][]][] = [
      [
        "the number in the text beats the amount alone",
        { amount: "121.00", remittanceInformation: `Apmokėjimas pagal sąskaitą ${w.kitas.number}, ačiū` },
        [
          [w.kitas.id, "sale_invoice", 0.74, ["invoice_number", "exact_amount"]],
          [w.pirkejas.id, "sale_invoice", 0.35, ["exact_amount"]],
        ],
      ],
      [
        "the number written apart (SF 2) is found too",
        { amount: "10.00", remittanceInformation: w.kitas.number!.replace("-", " ") },
        [[w.kitas.id, "sale_invoice", 0.6, ["invoice_number"]]],
      ],
      [
        "an RF creditor reference",
        { amount: "121.00", creditorReference: rf(w.pirkejas.number!.replace(/[^A-Za-z0-9]/g, "")) },
        [
          [w.pirkejas.id, "sale_invoice", 0.805, ["creditor_reference", "exact_amount"]],
          [w.kitas.id, "sale_invoice", 0.35, ["exact_amount"]],
        ],
      ],
      [
        "the partner's own IBAN, then the amount",
        { amount: "60.50", counterpartyIban: CUSTOMER_IBAN },
        [
          [w.pirkejas.id, "sale_invoice", 0.4, ["known_iban"]],
          [w.jonas.id, "sale_invoice", 0.35, ["exact_amount"]],
        ],
      ],
      [
        "the counterparty's name, accents and case aside",
        { amount: "60.50", counterpartyName: "JONAS JONAITIS" },
        [[w.jonas.id, "sale_invoice", 0.545, ["exact_amount", "name_similarity"]]],
      ],
      [
        "money out: the supplier's invoice, never a sales invoice",
        { amount: "-60.50", remittanceInformation: "Sask. TK-7781" },
        [[w.supplier.id, "purchase_invoice", 0.74, ["invoice_number", "exact_amount"]]],
      ],
      ["nothing alike: no candidates", { amount: "3.33", remittanceInformation: "Kava", counterpartyIban: STRANGER_IBAN }, []],
    ];
    for (const [name, row, expected] of cases) {
      const tx = await bankTransaction(w, row.amount as string, row);
      expect([name, await ranked(w, tx.id)]).toEqual([name, expected]);
    }
  });

  test("an IBAN that paid a partner's invoice before raises that partner's other invoices", async () => {
    const w = await world();
    const second = await issuedSale(w, "20", { partnerCode: "KITAS" });
    const first = await bankTransaction(w, "121.00", { counterpartyIban: STRANGER_IBAN });
    expect((await ranked(w, first.id)).map((c) => c[3])).toEqual([["exact_amount"], ["exact_amount"]]);
    await w.api.bank.transactions.match({ transactionId: first.id, allocations: [{ saleInvoiceId: w.kitas.id, amount: "121.00" }] });
    const later = await bankTransaction(w, "24.20", { counterpartyIban: STRANGER_IBAN });
    expect(await ranked(w, later.id)).toEqual([[second.id, "sale_invoice", 0.61, ["known_iban", "exact_amount"]]]);
    // A paid invoice is no candidate any more.
    const again = await bankTransaction(w, "121.00");
    expect((await ranked(w, again.id)).map((c) => c[0])).toEqual([w.pirkejas.id]);
  });

  test("a look-alike invoice of another company (same number, amount and customer IBAN) is never suggested", async () => {
    const w = await world();
    const other = await bankWorld(h);
    const theirs = await issuedSale(other, "100", { dueDate: "2026-03-16" });
    expect([theirs.number, theirs.grossTotal]).toEqual([w.pirkejas.number, "121.00"]);
    const tx = await bankTransaction(w, "121.00", { remittanceInformation: `Apmokėjimas ${w.pirkejas.number}`, counterpartyIban: CUSTOMER_IBAN });
    expect(await ranked(w, tx.id)).toEqual([
      [w.pirkejas.id, "sale_invoice", 0.844, ["invoice_number", "known_iban", "exact_amount"]],
      [w.kitas.id, "sale_invoice", 0.35, ["exact_amount"]],
    ]);
  });

  test("a matched or ignored transaction has no suggestions (409); unmatched again, it has", async () => {
    const w = await world();
    const tx = await bankTransaction(w, "121.00", { remittanceInformation: w.pirkejas.number });
    await w.api.bank.transactions.match({ transactionId: tx.id, allocations: [{ saleInvoiceId: w.pirkejas.id, amount: "121.00" }] });
    await expectApiError(w.api.bank.transactions.suggestMatches({ transactionId: tx.id }), 409, "conflict", "bank_transaction.already_matched");
    await w.api.bank.transactions.unmatch({ transactionId: tx.id });
    expect((await ranked(w, tx.id)).map((c) => [c[0], c[3]])).toEqual([
      [w.pirkejas.id, ["invoice_number", "exact_amount"]],
      [w.kitas.id, ["exact_amount"]],
    ]);
    await w.api.bank.transactions.ignore({ id: tx.id, reason: "Grąžinta" });
    await expectApiError(w.api.bank.transactions.suggestMatches({ transactionId: tx.id }), 409, "conflict", "bank_transaction.ignored");
  });

  test("another company's transaction is 404; a bank:read key may ask", async () => {
    const w = await world();
    const tx = await bankTransaction(w, "121.00");
    const other = await bankWorld(h);
    await expectApiError(other.api.bank.transactions.suggestMatches({ transactionId: tx.id }), 404, "not_found", "bank_transaction.not_found");
    const key = await w.api.account.apiKeys.create({ name: "r", scopes: ["bank:read"] });
    expect((await h.sdk(key.key, w.companyId).bank.transactions.suggestMatches({ transactionId: tx.id, limit: 1 })).candidates).toHaveLength(1);
  });
});
