// `sales/invoices/pdf`: the document as the buyer receives it, seller from the company's profile, buyer from the
// document's snapshot (a draft shows the partner as it is now, marked as a draft).
import type { components } from "../../generated/types.js";
import type { Db } from "../db/connection.js";
import type { CompaniesRow, PartnersRow, SaleInvoicesRow } from "../db/rows.js";
import { addressLine, type DocumentLanguage, renderPdf } from "../invoicing/index.js";
import { getSaleInvoice } from "./invoices.js";
import { postedVatEur } from "./vat-eur.js";

type SaleInvoicePdf = components["schemas"]["Sales.SaleInvoicePdf"];
type SaleInvoice = components["schemas"]["Sales.SaleInvoice"];
type Issuer = components["schemas"]["Account.InvoiceIssuer"];

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
// Each as [heading, text] in Lithuanian and in English; a bilingual document prints "heading / heading: text /
// text" ("Atvirkštinis apmokestinimas / Reverse charge: …"), a document in one language its own side.
type Note = { lt: [string, string]; en: [string, string] };
const LEGAL_NOTES: Record<string, Note> = {
  PVM25: {
    lt: ["Atvirkštinis apmokestinimas", "PVM apskaičiuoja pirkėjas pagal PVM įstatymo 96 straipsnį"],
    en: ["Reverse charge", "VAT to be accounted for by the buyer under Art. 96 of the Lithuanian VAT law"],
  },
  PVM13: {
    lt: ["0 % PVM", "prekių tiekimas į kitą ES valstybę narę, PVM įstatymo 49 straipsnis"],
    en: ["0% VAT", "intra-Community supply of goods, Art. 49 of the Lithuanian VAT law"],
  },
  PVM12: { lt: ["0 % PVM", "prekių eksportas, PVM įstatymo 41 straipsnis"], en: ["0% VAT", "export of goods, Art. 41 of the Lithuanian VAT law"] },
  PVM14: {
    lt: ["0 % PVM", "PVM įstatymo 42-48, 51-53 straipsniai (tarptautinis transportas, su eksportu susijusios paslaugos ir kt.)"],
    en: ["0% VAT", "Art. 42-48, 51-53 of the Lithuanian VAT law (international transport, services linked with export and the like)"],
  },
  PVM15: {
    lt: [
      "Atvirkštinis apmokestinimas",
      "tiekimo vieta ne Lietuvoje (PVM įstatymo 58 straipsnio 1 dalies 2 punktas), PVM apskaičiuoja pirkėjas (Direktyvos 2006/112/EB 196 straipsnis)",
    ],
    en: [
      "Reverse charge",
      "place of supply outside Lithuania (Art. 58(1)(2) of the Lithuanian VAT law), VAT to be accounted for by the customer (Directive 2006/112/EC Art. 196)",
    ],
  },
  PVM5: { lt: ["PVM neapmokestinama", "PVM įstatymo 20-33 straipsniai"], en: ["Exempt from VAT", "Art. 20-33 of the Lithuanian VAT law"] },
};
const TRIANGULAR: Note = {
  lt: ["Trikampė prekyba", "PVM apskaičiuoja pirkėjas (Direktyvos 2006/112/EB 141 ir 197 straipsniai)"],
  en: ["Triangular trade", "VAT to be accounted for by the buyer (Directive 2006/112/EC Art. 141 and 197)"],
};
const noteIn = (note: Note, language: DocumentLanguage) =>
  language === "lt-en" ? `${note.lt[0]} / ${note.en[0]}: ${note.lt[1]} / ${note.en[1]}` : `${note[language][0]}: ${note[language][1]}`;
// What a breakdown row of such a classifier says instead of "apmokestinama / taxable".
const BREAKDOWN_WORDS: Record<string, string> = {
  PVM5: "neapmokestinama / exempt",
  PVM12: "eksportas / export",
  PVM13: "tiekimas į ES / intra-Community supply",
  PVM14: "0 % sandoriai / zero-rated",
  PVM15: "tiekimo vieta ne Lietuvoje / supplied outside Lithuania",
  PVM25: "atvirkštinis apmokestinimas / reverse charge",
};
/** The legal wording of a document: one note per classifier that needs one, in the order the lines name them. */
function legalNotesOf(invoice: SaleInvoice, language: DocumentLanguage): string[] {
  const classifiers = [...new Set(invoice.lines.flatMap((l) => (l.vatClassifier ? [l.vatClassifier] : [])))];
  const notes = classifiers.flatMap((c) => (LEGAL_NOTES[c] ? [LEGAL_NOTES[c]] : []));
  return (invoice.triangular ? [...notes, TRIANGULAR] : notes).map((n) => noteIn(n, language));
}

/** `options.issuer`: the issuer the PDF names instead of the company's `invoiceIssuer`. */
export async function saleInvoicePdf(db: Db, companyId: string, id: string, options: { issuer?: Issuer | null } = {}): Promise<SaleInvoicePdf> {
  const [invoice, company] = await Promise.all([getSaleInvoice(db, companyId, id), db<CompaniesRow>("companies").where({ id: companyId }).first()]);
  // The company of a company-scoped request exists (the pipeline resolved it).
  if (!company) throw new Error(`company ${companyId} not found`);
  // A document of a seller that was not a VAT payer carries no classifier on any line (src/sales/vat-rules.ts).
  const withoutVat = invoice.lines.every((l) => l.vatClassifier === null);
  const credited = invoice.creditedInvoiceId
    ? await db<SaleInvoicesRow>("sale_invoices").where({ company_id: companyId, id: invoice.creditedInvoiceId }).first("number")
    : undefined;
  const number = invoice.number ?? "—";
  // The partner's language as it is now: a preference of how to read, not a fact of the document.
  const partner = await db<PartnersRow>("partners").where({ company_id: companyId, code: invoice.partnerCode }).first("document_language");
  const vatEur = invoice.currency !== "EUR" && invoice.rate && !withoutVat ? await postedVatEur(db, companyId, invoice) : undefined;
  const issuer = options.issuer ?? (company.invoice_issuer as Issuer | null);
  const language = (partner?.document_language ?? "lt-en") as DocumentLanguage;
  const pdf = await renderPdf({
    language,
    vatInEur: vatEur && invoice.rate ? { amount: vatEur.toFixed(2), rate: invoice.rate.rate, date: invoice.rate.date } : undefined,
    issuer,
    breakdownWords: BREAKDOWN_WORDS,
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
    legalNotes: legalNotesOf(invoice, language),
    withoutVat,
  });
  return {
    fileName: `${invoice.number ?? `draft-${invoice.id}`}.pdf`.replace(/[/\\]/g, "_"),
    contentType: "application/pdf",
    contentBase64: pdf.toString("base64"),
  };
}
