// bank/payments/export: a SEPA credit transfer file, ISO 20022 pain.001.001.03 (what Lithuanian banks accept), paying
// the selected purchase invoices what they have outstanding. Built as text: every value is escaped for XML and cut
// to the length the scheme allows; amounts are decimal strings, the control sum their exact sum.
import { randomBytes } from "node:crypto";
import type { components } from "../../generated/types.js";
import type { Db } from "../db/connection.js";
import type { PartnersRow, PurchaseInvoicesRow } from "../db/rows.js";
import { Decimal } from "../shared/decimal.js";
import { ApiError, type FieldErrors } from "../shared/errors.js";
import { findBankAccount } from "./accounts.js";

type ExportInput = components["schemas"]["Bank.PaymentExportRequest"];
type ExportResult = components["schemas"]["Bank.PaymentExportResult"];

/** XML text: the five special characters escaped, control characters (not allowed in XML 1.0) dropped, cut to `max`. */
export function xmlText(value: string, max: number): string {
  const clean = [
    ...value
      .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, "")
      .replace(/\s+/g, " ")
      .trim(),
  ]
    .slice(0, max)
    .join("");
  return clean.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&apos;");
}

const timestamp = () => new Date().toISOString().slice(0, 19);

/** An invoice to pay: registered, in EUR, with something outstanding, of a supplier with an IBAN. */
type Payable = Pick<PurchaseInvoicesRow, "id" | "type" | "status" | "document_number" | "partner_code" | "currency" | "outstanding" | "due_date"> & {
  partner_name: PartnersRow["name"];
  partner_iban: PartnersRow["iban"];
};

export async function exportPayments(trx: Db, companyId: string, input: ExportInput): Promise<ExportResult> {
  const account = await findBankAccount(trx, companyId, input.bankAccountId);
  if (account.currency !== "EUR") {
    throw new ApiError("unprocessable", `A SEPA credit transfer is in EUR; the bank account ${account.iban} is in ${account.currency}.`, {
      key: "bank_payment.currency_not_eur",
      params: { bankAccountId: account.id, currency: account.currency },
      fieldErrors: { bankAccountId: [`is in ${account.currency}, not EUR`] },
    });
  }
  const docs = await payableInvoices(trx, companyId, input.purchaseInvoiceIds);
  const company = await trx("companies").where({ id: companyId }).first("name");
  const total = docs.reduce((s, d) => s.plus(d.outstanding), new Decimal(0));
  const created = timestamp();
  const msgId = `PAY${created.replace(/[^0-9]/g, "")}${randomBytes(4).toString("hex").toUpperCase()}`;
  const xml = painDocument({ msgId, created, debtorName: company.name, account, executionDate: input.executionDate, docs, total });
  return {
    fileName: `pain001-${input.executionDate}-${msgId}.xml`,
    contentBase64: Buffer.from(xml, "utf8").toString("base64"),
    count: docs.length,
    total: total.toFixed(2),
  };
}

/** The named invoices in the request's order, each checked: 422 naming every one that cannot be paid, then every supplier without an IBAN. */
async function payableInvoices(trx: Db, companyId: string, purchaseInvoiceIds: string[]): Promise<Payable[]> {
  const ids = purchaseInvoiceIds.map((id) => id.toLowerCase());
  const repeated = ids.flatMap((id, i) => (ids.indexOf(id) !== i ? [i] : []));
  if (repeated.length) {
    throw new ApiError("validation", "An invoice is named twice.", {
      key: "request.invalid",
      fieldErrors: Object.fromEntries(repeated.map((i) => [`purchaseInvoiceIds[${i}]`, ["names an invoice named before"]])),
    });
  }
  const rows: Payable[] = await trx("purchase_invoices as d")
    .join("partners as p", (j) => j.on("p.company_id", "d.company_id").andOn("p.code", "d.partner_code"))
    .where("d.company_id", companyId)
    .whereIn("d.id", ids)
    .select(
      "d.id",
      "d.type",
      "d.status",
      "d.document_number",
      "d.partner_code",
      "d.currency",
      "d.outstanding",
      "d.due_date",
      "p.name as partner_name",
      "p.iban as partner_iban",
    );
  const byId = new Map(rows.map((r) => [r.id, r]));

  const invalid: FieldErrors = {};
  const noIban: FieldErrors = {};
  const missing: { id: string; documentNumber: string; partnerCode: string }[] = [];
  ids.forEach((id, i) => {
    const doc = byId.get(id);
    const path = `purchaseInvoiceIds[${i}]`;
    const problem = !doc
      ? "does not exist"
      : doc.type === "credit_note"
        ? `${doc.document_number} is a credit note`
        : doc.status === "draft"
          ? `${doc.document_number} is a draft`
          : new Decimal(doc.outstanding).isZero()
            ? `${doc.document_number} has nothing outstanding`
            : doc.currency !== "EUR"
              ? `${doc.document_number} is in ${doc.currency}, not EUR`
              : undefined;
    if (problem) invalid[path] = [problem];
    else if (!doc!.partner_iban) {
      noIban[path] = [`supplier ${doc!.partner_code} of ${doc!.document_number} has no IBAN`];
      missing.push({ id, documentNumber: doc!.document_number, partnerCode: doc!.partner_code });
    }
  });
  if (Object.keys(invalid).length) {
    throw new ApiError("unprocessable", `Invoice ${Object.values(invalid)[0][0]}; only registered EUR invoices with something outstanding can be paid.`, {
      key: "bank_payment.invoice_invalid",
      fieldErrors: invalid,
    });
  }
  if (missing.length) {
    throw new ApiError("unprocessable", `No IBAN for the supplier of ${missing.map((m) => m.documentNumber).join(", ")}: set the partner's iban.`, {
      key: "bank_payment.iban_missing",
      params: { invoices: missing },
      fieldErrors: noIban,
    });
  }
  return ids.map((id) => byId.get(id)!);
}

/** The pain.001.001.03 document: one payment information block, one credit transfer per invoice, in its order. */
function painDocument(p: {
  msgId: string;
  created: string;
  debtorName: string;
  account: { iban: string; bic: string | null };
  executionDate: string;
  docs: Payable[];
  total: Decimal;
}): string {
  const debtor = xmlText(p.debtorName, 70);
  const transfers = p.docs
    .map(
      (d, i) =>
        `<CdtTrfTxInf><PmtId><InstrId>${p.msgId}-${i + 1}</InstrId><EndToEndId>${xmlText(d.document_number, 35)}</EndToEndId></PmtId>` +
        `<Amt><InstdAmt Ccy="EUR">${new Decimal(d.outstanding).toFixed(2)}</InstdAmt></Amt>` +
        `<Cdtr><Nm>${xmlText(d.partner_name, 70)}</Nm></Cdtr><CdtrAcct><Id><IBAN>${d.partner_iban}</IBAN></Id></CdtrAcct>` +
        `<RmtInf><Ustrd>${xmlText(d.document_number, 140)}</Ustrd></RmtInf></CdtTrfTxInf>`,
    )
    .join("\n      ");
  const agent = p.account.bic ? `<FinInstnId><BIC>${p.account.bic}</BIC></FinInstnId>` : `<FinInstnId><Othr><Id>NOTPROVIDED</Id></Othr></FinInstnId>`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:pain.001.001.03" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
  <CstmrCdtTrfInitn>
    <GrpHdr><MsgId>${p.msgId}</MsgId><CreDtTm>${p.created}</CreDtTm><NbOfTxs>${p.docs.length}</NbOfTxs><CtrlSum>${p.total.toFixed(2)}</CtrlSum><InitgPty><Nm>${debtor}</Nm></InitgPty></GrpHdr>
    <PmtInf>
      <PmtInfId>${p.msgId}-1</PmtInfId><PmtMtd>TRF</PmtMtd><BtchBookg>false</BtchBookg><NbOfTxs>${p.docs.length}</NbOfTxs><CtrlSum>${p.total.toFixed(2)}</CtrlSum>
      <PmtTpInf><SvcLvl><Cd>SEPA</Cd></SvcLvl></PmtTpInf><ReqdExctnDt>${p.executionDate}</ReqdExctnDt>
      <Dbtr><Nm>${debtor}</Nm></Dbtr><DbtrAcct><Id><IBAN>${p.account.iban}</IBAN></Id><Ccy>EUR</Ccy></DbtrAcct><DbtrAgt>${agent}</DbtrAgt><ChrgBr>SLEV</ChrgBr>
      ${transfers}
    </PmtInf>
  </CstmrCdtTrfInitn>
</Document>
`;
}
