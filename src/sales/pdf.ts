// `sales/invoices/pdf`: the document as the buyer receives it, seller from the company's profile, buyer from the
// document's snapshot (a draft shows the partner as it is now, marked as a draft).
import type { components } from "../../generated/types.js";
import type { Db } from "../db/connection.js";
import type { CompaniesRow, SaleInvoicesRow } from "../db/rows.js";
import { addressLine, renderPdf } from "../invoicing/index.js";
import { getSaleInvoice } from "./invoices.js";

type SaleInvoicePdf = components["schemas"]["Sales.SaleInvoicePdf"];
type SaleInvoice = components["schemas"]["Sales.SaleInvoice"];

// The title of each document type, with VAT (PVM sąskaita faktūra) and without (a seller that is not a VAT payer
// issues a "sąskaita faktūra": PVM įstatymas Art. 79-80 apply to VAT invoices only).
const TITLES = {
  invoice: ["PVM SĄSKAITA FAKTŪRA / VAT INVOICE", "SĄSKAITA FAKTŪRA / INVOICE"],
  credit_note: ["KREDITINĖ PVM SĄSKAITA FAKTŪRA / CREDIT NOTE", "KREDITINĖ SĄSKAITA FAKTŪRA / CREDIT NOTE"],
  debit_note: ["DEBETINĖ PVM SĄSKAITA FAKTŪRA / DEBIT NOTE", "DEBETINĖ SĄSKAITA FAKTŪRA / DEBIT NOTE"],
} as const;

// The article a supply without Lithuanian VAT rests on, printed on the document (PVM įstatymas Art. 80(1): the
// invoice names why no VAT is charged; for a reverse charge, the words "Atvirkštinis apmokestinimas", Directive
// 2006/112/EC Art. 226(11a)). Articles as the classifiers cite them (migration 20261123000101).
const LEGAL_NOTES: Record<string, string> = {
  PVM25:
    "Atvirkštinis apmokestinimas / Reverse charge: PVM apskaičiuoja pirkėjas pagal PVM įstatymo 96 straipsnį / VAT to be accounted for by the buyer under Art. 96 of the Lithuanian VAT law",
  PVM13:
    "0 % PVM: prekių tiekimas į kitą ES valstybę narę, PVM įstatymo 49 straipsnis / 0% VAT: intra-Community supply of goods, Art. 49 of the Lithuanian VAT law",
  PVM12: "0 % PVM: prekių eksportas, PVM įstatymo 41 straipsnis / 0% VAT: export of goods, Art. 41 of the Lithuanian VAT law",
};
const TRIANGULAR_NOTE =
  "Trikampė prekyba: PVM apskaičiuoja pirkėjas (Direktyvos 2006/112/EB 141 ir 197 straipsniai) / Triangular trade: VAT to be accounted for by the buyer (Directive 2006/112/EC Art. 141 and 197)";

/** The legal wording of a document: one note per classifier that needs one, in the order the lines name them. */
function legalNotesOf(invoice: SaleInvoice): string[] {
  const classifiers = [...new Set(invoice.lines.flatMap((l) => (l.vatClassifier ? [l.vatClassifier] : [])))];
  const notes = classifiers.flatMap((c) => (LEGAL_NOTES[c] ? [LEGAL_NOTES[c]] : []));
  return invoice.triangular ? [...notes, TRIANGULAR_NOTE] : notes;
}

export async function saleInvoicePdf(db: Db, companyId: string, id: string): Promise<SaleInvoicePdf> {
  const [invoice, company] = await Promise.all([getSaleInvoice(db, companyId, id), db<CompaniesRow>("companies").where({ id: companyId }).first()]);
  // The company of a company-scoped request exists (the pipeline resolved it).
  if (!company) throw new Error(`company ${companyId} not found`);
  // A document of a seller that was not a VAT payer carries no classifier on any line (src/sales/vat-rules.ts).
  const withoutVat = invoice.lines.every((l) => l.vatClassifier === null);
  const credited = invoice.creditedInvoiceId
    ? await db<SaleInvoicesRow>("sale_invoices").where({ company_id: companyId, id: invoice.creditedInvoiceId }).first("number")
    : undefined;
  const number = invoice.number ?? "—";
  const pdf = await renderPdf({
    title: TITLES[invoice.type][withoutVat ? 1 : 0],
    subtitle: credited
      ? `Koreguojama sąskaita / ${invoice.type === "debit_note" ? "Debits" : "Credits"} invoice ${credited.number}`
      : invoice.status === "annulled"
        ? "ANULIUOTA / ANNULLED"
        : undefined,
    number,
    draft: invoice.status === "draft",
    issueDate: invoice.issueDate,
    supplyDate: invoice.supplyDate,
    dueDate: invoice.dueDate,
    currency: invoice.currency,
    seller: { name: company.name, registrationCode: company.code, vatCode: company.vat_code, address: addressLine(company.address), iban: company.iban },
    buyer: {
      name: invoice.partner.name,
      registrationCode: invoice.partner.registrationCode,
      vatCode: invoice.partner.vatCode,
      address: addressLine(invoice.partner.address),
    },
    lines: invoice.lines.map((l) => ({
      description: l.description,
      quantity: l.quantity,
      unit: l.unit,
      unitPrice: l.unitPriceExclVat,
      discountPercent: l.discountPercent,
      vatRatePercent: l.vatRatePercent,
      netAmount: l.netAmount,
    })),
    breakdown: invoice.vatBreakdown,
    netTotal: invoice.netTotal,
    vatTotal: invoice.vatTotal,
    grossTotal: invoice.grossTotal,
    notes: invoice.notes,
    legalNotes: legalNotesOf(invoice),
    withoutVat,
  });
  return {
    fileName: `${invoice.number ?? `draft-${invoice.id}`}.pdf`.replace(/[/\\]/g, "_"),
    contentType: "application/pdf",
    contentBase64: pdf.toString("base64"),
  };
}
