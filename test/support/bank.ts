// What the bank tests share: valid IBANs, a company with the lt-standard chart, a customer and a supplier and a
// bank account, the journal lines of a transaction, and camt.053 files built from a list of entries.
import { Decimal } from "decimal.js";
import type { AccountingApi } from "../../sdk/typescript/src/index.js";
import type { Harness } from "./harness.js";
import { world } from "./world.js";

/** An IBAN of `country` with `bban`, its check digits computed (ISO 13616). */
export function ibanOf(country: string, bban: string): string {
  let remainder = 0;
  for (const ch of `${bban + country}00`) {
    const digits = /[0-9]/.test(ch) ? ch : String(ch.charCodeAt(0) - 55);
    for (const d of digits) remainder = (remainder * 10 + Number(d)) % 97;
  }
  return country + String(98 - remainder).padStart(2, "0") + bban;
}

let accountSeq = 0;
/** A fresh Lithuanian IBAN (Swedbank's bank code 73000). */
export const newIban = () => ibanOf("LT", `73000${String(10000000000 + ++accountSeq * 7919).slice(-11)}`);

export interface BankWorld {
  companyId: string;
  apiKey: string;
  api: AccountingApi;
  account: Awaited<ReturnType<AccountingApi["bank"]["accounts"]["create"]>>;
}

/** A tenant with the lt-standard chart, customer PIRKEJAS, supplier TIEKEJAS (each with an IBAN) and an EUR bank account. */
export async function bankWorld(h: Harness): Promise<BankWorld> {
  const w = await world(h, {
    // A VAT payer: a company without a VAT code issues no VAT (issue 24).
    company: { vatCode: "LT100001919017" },
    partners: [
      { code: "PIRKEJAS", name: "Pirkėjas UAB", isCustomer: true, isSupplier: false, iban: ibanOf("LT", "7044060001234567"), paymentTermDays: 14 },
      { code: "TIEKEJAS", name: "Tiekėjas UAB", isCustomer: false, isSupplier: true, iban: ibanOf("LT", "4010051000000001"), paymentTermDays: 30 },
    ],
    bankAccounts: [{ name: "Swedbank EUR", iban: newIban(), bic: "HABALT22" }],
  });
  return { companyId: w.companyId, apiKey: w.apiKey, api: w.api, account: w.bankAccounts[0] };
}

/** A journal transaction's lines as [account, debit, credit, partner]. */
export async function journalLines(h: Harness, companyId: string, transactionId: string | null) {
  if (!transactionId) return null;
  const entries = await h.db("journal_entries").where({ company_id: companyId, transaction_id: transactionId }).orderBy("line_no");
  return entries.map((e) => [e.account_code, new Decimal(e.debit).toFixed(2), new Decimal(e.credit).toFixed(2), e.partner_code]);
}

type Line = { description: string; quantity: string; unitPriceExclVat: string; vatRatePercent: string };
/** One line of `net` at 21 % VAT. */
export const lineOf = (net: string): Line => ({ description: "Paslauga", quantity: "1", unitPriceExclVat: net, vatRatePercent: "21" });

/** An issued sales invoice to PIRKEJAS with one line of `net` (+21 % VAT). */
export async function issuedSale(w: BankWorld, net: string, over: Record<string, unknown> = {}) {
  const draft = await w.api.sales.invoices.create({ partnerCode: "PIRKEJAS", issueDate: "2026-03-02", lines: [lineOf(net)], ...over });
  return w.api.sales.invoices.issue({ id: draft.id });
}

let purchaseSeq = 0;
/** A registered purchase invoice from TIEKEJAS with one line of `net` (+21 % VAT). */
export async function registeredPurchase(w: BankWorld, net: string, over: Record<string, unknown> = {}) {
  const draft = await w.api.purchases.invoices.create({
    partnerCode: "TIEKEJAS",
    documentNumber: `PR-${++purchaseSeq}`,
    documentDate: "2026-03-02",
    lines: [lineOf(net)],
    ...over,
  });
  return w.api.purchases.invoices.register({ id: draft.id });
}

/** Imports one transaction into `bankAccountId` (default the world's account) and returns it. */
export async function bankTransaction(w: BankWorld, amount: string, over: Record<string, unknown> = {}, bankAccountId = w.account.id) {
  const bankReference = `REF-${Math.random().toString(36).slice(2)}`;
  await w.api.bank.transactions.import({ bankAccountId, transactions: [{ bookingDate: "2026-03-20", amount, bankReference, ...over }] });
  const { rows } = await w.api.bank.transactions.list({ filter: [{ field: "bankReference", op: "eq", value: bankReference }] });
  return rows[0];
}
