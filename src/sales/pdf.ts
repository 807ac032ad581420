// `sales/invoices/pdf`: the document as the buyer receives it, seller from the company's profile, buyer from the
// document's snapshot (a draft shows the partner as it is now, marked as a draft).
import type { components } from "../../generated/types.js";
import type { Db } from "../db/connection.js";
import type { CompaniesRow, SaleInvoicesRow } from "../db/rows.js";
import { addressLine, renderPdf } from "../invoicing/index.js";
import { getSaleInvoice } from "./invoices.js";

type SaleInvoicePdf = components["schemas"]["Sales.SaleInvoicePdf"];

export async function saleInvoicePdf(db: Db, companyId: string, id: string): Promise<SaleInvoicePdf> {
  const [invoice, company] = await Promise.all([getSaleInvoice(db, companyId, id), db<CompaniesRow>("companies").where({ id: companyId }).first()]);
  // The company of a company-scoped request exists (the pipeline resolved it).
  if (!company) throw new Error(`company ${companyId} not found`);
  const isCredit = invoice.type === "credit_note";
  const credited = invoice.creditedInvoiceId
    ? await db<SaleInvoicesRow>("sale_invoices").where({ company_id: companyId, id: invoice.creditedInvoiceId }).first("number")
    : undefined;
  const number = invoice.number ?? "—";
  const pdf = await renderPdf({
    title: isCredit ? "KREDITINĖ PVM SĄSKAITA FAKTŪRA / CREDIT NOTE" : "PVM SĄSKAITA FAKTŪRA / VAT INVOICE",
    subtitle: credited ? `Koreguojama sąskaita / Credits invoice ${credited.number}` : undefined,
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
  });
  return {
    fileName: `${invoice.number ?? `draft-${invoice.id}`}.pdf`.replace(/[/\\]/g, "_"),
    contentType: "application/pdf",
    contentBase64: pdf.toString("base64"),
  };
}
