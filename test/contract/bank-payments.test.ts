// bank/payments/export: the pain.001.001.03 file parsed back — group header and payment information counts and
// control sums, the debtor's IBAN, each transfer's amount (what is outstanding), supplier IBAN and remittance text,
// names escaped — and the refusals naming the invoices (no supplier IBAN, drafts, settled, credit notes, not EUR).
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { expectApiError } from "../support/expect.js";
import { startHarness, type Harness } from "../support/harness.js";
import { bankTransaction, bankWorld, ibanOf, lineOf, registeredPurchase, type BankWorld } from "../support/bank.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
}, 180_000);
afterAll(() => h.close());

const SUPPLIER_IBAN = ibanOf("LT", "4010051000000001");
const OTHER_IBAN = ibanOf("LT", "7300010000005555");

const parse = (contentBase64: string) => {
  const xml = Buffer.from(contentBase64, "base64").toString("utf8");
  expect(XMLValidator.validate(xml)).toBe(true);
  const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "@_", parseTagValue: false, isArray: (n) => n === "CdtTrfTxInf" }).parse(xml);
  return { xml, doc: doc.Document };
};

describe("pain.001 export", () => {
  test("one transfer per invoice for what it has outstanding; the control sums add up", async () => {
    const w = await bankWorld(h);
    await w.api.partners.create({ code: "ZUVIS", name: `Žuvis & <Co> "UAB"`, isCustomer: false, isSupplier: true, iban: OTHER_IBAN });
    const a = await registeredPurchase(w, "100", { documentNumber: "TK-100" });
    const b = await registeredPurchase(w, "33.33", { documentNumber: "ZU/2026/7", partnerCode: "ZUVIS" });
    const part = await bankTransaction(w, "-21.00");
    await w.api.bank.transactions.match({ transactionId: part.id, allocations: [{ purchaseInvoiceId: a.id, amount: "21.00" }] });

    const file = await w.api.bank.payments.export({ bankAccountId: w.account.id, purchaseInvoiceIds: [a.id, b.id], executionDate: "2026-03-25" });
    expect([file.count, file.total]).toEqual([2, "140.33"]);
    expect(file.fileName).toMatch(/^pain001-2026-03-25-PAY[0-9A-F]+\.xml$/);
    const { xml, doc } = parse(file.contentBase64);
    expect(doc["@_xmlns"]).toBe("urn:iso:std:iso:20022:tech:xsd:pain.001.001.03");
    const { GrpHdr, PmtInf } = doc.CstmrCdtTrfInitn;
    expect([GrpHdr.NbOfTxs, GrpHdr.CtrlSum, GrpHdr.InitgPty.Nm]).toEqual(["2", "140.33", "Bandymas UAB"]);
    expect([PmtInf.PmtMtd, PmtInf.NbOfTxs, PmtInf.CtrlSum, PmtInf.ReqdExctnDt, PmtInf.PmtTpInf.SvcLvl.Cd, PmtInf.ChrgBr]).toEqual([
      "TRF",
      "2",
      "140.33",
      "2026-03-25",
      "SEPA",
      "SLEV",
    ]);
    expect([PmtInf.DbtrAcct.Id.IBAN, PmtInf.DbtrAcct.Ccy, PmtInf.DbtrAgt.FinInstnId.BIC]).toEqual([w.account.iban, "EUR", "HABALT22"]);
    expect(
      PmtInf.CdtTrfTxInf.map((t: any) => [t.Amt.InstdAmt["#text"], t.Amt.InstdAmt["@_Ccy"], t.CdtrAcct.Id.IBAN, t.Cdtr.Nm, t.RmtInf.Ustrd, t.PmtId.EndToEndId]),
    ).toEqual([
      ["100.00", "EUR", SUPPLIER_IBAN, "Tiekėjas UAB", "TK-100", "TK-100"],
      ["40.33", "EUR", OTHER_IBAN, `Žuvis & <Co> "UAB"`, "ZU/2026/7", "ZU/2026/7"],
    ]);
    expect(xml).toContain("Žuvis &amp; &lt;Co&gt; &quot;UAB&quot;");
    // Nothing is posted or changed by an export.
    expect(
      await h.db("purchase_invoices").where({ company_id: w.companyId }).orderBy("document_number").select("document_number", "status", "outstanding"),
    ).toEqual([
      { document_number: "TK-100", status: "partially_paid", outstanding: "100.00" },
      { document_number: "ZU/2026/7", status: "registered", outstanding: "40.33" },
    ]);
  });

  test("suppliers without an IBAN are 422 naming their invoices", async () => {
    const w = await bankWorld(h);
    await w.api.partners.create({ code: "BEIBAN", name: "Be sąskaitos UAB", isCustomer: false, isSupplier: true });
    const ok = await registeredPurchase(w, "10");
    const x = await registeredPurchase(w, "20", { partnerCode: "BEIBAN", documentNumber: "BI-1" });
    const y = await registeredPurchase(w, "30", { partnerCode: "BEIBAN", documentNumber: "BI-2" });
    const error = await expectApiError(
      w.api.bank.payments.export({ bankAccountId: w.account.id, purchaseInvoiceIds: [ok.id, x.id, y.id], executionDate: "2026-03-25" }),
      422,
      "unprocessable",
      "bank_payment.iban_missing",
    );
    expect(error.params).toEqual({
      invoices: [
        { id: x.id, documentNumber: "BI-1", partnerCode: "BEIBAN" },
        { id: y.id, documentNumber: "BI-2", partnerCode: "BEIBAN" },
      ],
    });
    expect(Object.keys(error.fieldErrors ?? {})).toEqual(["purchaseInvoiceIds[1]", "purchaseInvoiceIds[2]"]);
    expect(error.message).toContain("BI-1, BI-2");
  });

  test.each([
    [
      "a draft",
      async (w: BankWorld) =>
        (await w.api.purchases.invoices.create({ partnerCode: "TIEKEJAS", documentNumber: "DR-1", documentDate: "2026-03-02", lines: [lineOf("10")] })).id,
      "bank_payment.invoice_invalid",
    ],
    [
      "a paid invoice",
      async (w: BankWorld) => {
        const inv = await registeredPurchase(w, "10");
        const tx = await bankTransaction(w, "-12.10");
        await w.api.bank.transactions.match({ transactionId: tx.id, allocations: [{ purchaseInvoiceId: inv.id, amount: "12.10" }] });
        return inv.id;
      },
      "bank_payment.invoice_invalid",
    ],
    ["another company's invoice", async (_w: BankWorld, other: BankWorld) => (await registeredPurchase(other, "10")).id, "bank_payment.invoice_invalid"],
    [
      "an invoice in USD",
      async (w: BankWorld) => {
        await w.api.reference.exchangeRates.set({ currency: "USD", date: "2026-03-02", rate: "1.1" });
        return (await registeredPurchase(w, "10", { currency: "USD" })).id;
      },
      "bank_payment.invoice_invalid",
    ],
  ])("%s is 422 naming it", async (_name, make, key) => {
    const w = await bankWorld(h);
    const other = await bankWorld(h);
    const good = await registeredPurchase(w, "5");
    const id = await make(w, other);
    const error = await expectApiError(
      w.api.bank.payments.export({ bankAccountId: w.account.id, purchaseInvoiceIds: [good.id, id], executionDate: "2026-03-25" }),
      422,
      "unprocessable",
      key,
    );
    expect(Object.keys(error.fieldErrors ?? {})).toEqual(["purchaseInvoiceIds[1]"]);
  });

  test("a USD bank account is 422; another company's bank account is 404; bank:read may not export", async () => {
    const w = await bankWorld(h);
    const inv = await registeredPurchase(w, "10");
    const usd = await w.api.bank.accounts.create({ name: "USD", iban: ibanOf("LT", "7300010000000888"), currency: "USD" });
    await expectApiError(
      w.api.bank.payments.export({ bankAccountId: usd.id, purchaseInvoiceIds: [inv.id], executionDate: "2026-03-25" }),
      422,
      "unprocessable",
      "bank_payment.currency_not_eur",
    );
    const other = await bankWorld(h);
    await expectApiError(
      other.api.bank.payments.export({ bankAccountId: w.account.id, purchaseInvoiceIds: [inv.id], executionDate: "2026-03-25" }),
      404,
      "not_found",
      "bank_account.not_found",
    );
    const key = await w.api.account.apiKeys.create({ name: "r", scopes: ["bank:read"] });
    await expectApiError(
      h.sdk(key.key, w.companyId).bank.payments.export({ bankAccountId: w.account.id, purchaseInvoiceIds: [inv.id], executionDate: "2026-03-25" }),
      403,
      "forbidden",
      "auth.scope_missing",
    );
  });
});
