// `sales/invoices/peppol-xml`: an issued sales document as a Peppol BIS Billing 3.0 e-invoice (UBL 2.1 `Invoice`, or
// `CreditNote` for a credit note), the format Lithuanian public buyers receive through SABIS and Peppol access points
// carry (issue 25). The XML is built as a tree and serialised by fast-xml-parser's builder, which escapes every text
// (no text of a client is ever concatenated into markup). What it must satisfy is the official rule sets, CEN EN 16931
// and Peppol BIS 3.0 (test/fixtures/schemas/peppol): the tests run every document they export through both.
//
// VAT categories (UNCL 5305, as EN 16931 uses them) from the VAT classifiers:
//   PVM1, PVM2, PVM3, PVM58 (taxed at 21, 9, 5, 12 %)        S   standard or reduced rate
//   PVM14 (other 0 % transactions)                            Z   zero rated
//   PVM5 (exempt, Art. 20-33)                                 E   exempt, with its reason
//   PVM12 (export of goods, Art. 41)                          G   free export item, with its reason
//   PVM13 (intra-Community supply of goods, Art. 49)          K   intra-Community supply: seller and buyer VAT ids,
//                                                                 the delivery date and country (BR-IC-11, BR-IC-12)
//   PVM15 (place of supply outside Lithuania, Art. 58)        AE  reverse charge when the buyer is a VAT payer of
//                                                                 another EU state (Directive 2006/112/EC Art. 196);
//                                                                 G otherwise (a buyer outside the EU)
//   PVM25 (domestic reverse charge, Art. 96)                  AE  reverse charge
//   no classifier (a seller that is not a VAT payer)          O   not subject to VAT: no seller VAT id (BR-O-02)
// Subtotals are one per category and rate (BR-S-08 and the like), summed from the document's own breakdown; the VAT
// of each is the document's VAT of that rate, which invoicing rounds once per rate (src/invoicing/totals.ts), so the
// rule "taxable × rate, rounded" holds for every subtotal.
//
// Endpoints (Peppol's Electronic Address Scheme): the buyer's own Peppol id when its partner has one (`peppolId`);
// else a Lithuanian party by its company code (0200), else by its VAT code (the scheme of its country's VAT numbers:
// 9937 Lithuania, 9930 Germany, …); a party without either cannot receive through Peppol: 422
// `peppol.endpoint_unknown` naming it.
import { XMLBuilder } from "fast-xml-parser";
import type { components } from "../../generated/types.js";
import type { Db } from "../db/connection.js";
import type { CompaniesRow, PartnersRow } from "../db/rows.js";
import { Decimal } from "../shared/decimal.js";
import { ApiError, conflict } from "../shared/errors.js";
import { getSaleInvoice } from "./invoices.js";
import { saleInvoicePdf } from "./pdf.js";
import { postedVatEur } from "./vat-eur.js";

type SaleInvoice = components["schemas"]["Sales.SaleInvoice"];
type PeppolXml = components["schemas"]["Sales.SalePeppolXml"];

const CUSTOMIZATION_ID = "urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0";
const PROFILE_ID = "urn:fdc:peppol.eu:2017:poacc:billing:01:1.0";
const EU = new Set("AT BE BG CY CZ DE DK EE ES FI FR GR HR HU IE IT LT LU LV MT NL PL PT RO SE SI SK".split(" "));

/** Peppol EAS codes of each country's VAT numbers (the code list in PEPPOL-EN16931-UBL.sch, rule CL008). */
const VAT_SCHEMES: Record<string, string> = {
  AT: "9914",
  BE: "9925",
  BG: "9926",
  CY: "9928",
  CZ: "9929",
  DE: "9930",
  DK: "0198",
  EE: "9931",
  ES: "9920",
  FI: "0213",
  FR: "9957",
  GR: "9933",
  HR: "9934",
  HU: "9910",
  IE: "9935",
  IT: "0211",
  LT: "9937",
  LU: "9938",
  LV: "9939",
  MT: "9943",
  NL: "9944",
  PL: "9945",
  PT: "9946",
  RO: "9947",
  SI: "9949",
  SK: "9950",
  GB: "9932",
  CH: "9927",
};

interface Category {
  id: "S" | "Z" | "E" | "G" | "K" | "AE" | "O";
  /** The words EN 16931 asks for on an exempt, zero-rated export, intra-Community or reverse-charge subtotal. */
  reason?: string;
  reasonCode?: string;
}

const REASONS = {
  E: { reason: "Neapmokestinama PVM pagal PVM įstatymo 20-33 straipsnius / Exempt under Art. 20-33 of the Lithuanian VAT law" },
  G: { reason: "Prekių eksportas, PVM įstatymo 41 straipsnis / Export outside the EU, Art. 41 of the Lithuanian VAT law", reasonCode: "VATEX-EU-G" },
  GS: {
    reason: "Paslaugų teikimo vieta ne Lietuvoje, PVM įstatymo 58 straipsnis / Place of supply outside Lithuania, Art. 58 of the Lithuanian VAT law",
    reasonCode: "VATEX-EU-G",
  },
  K: {
    reason: "Prekių tiekimas į kitą ES valstybę narę, PVM įstatymo 49 straipsnis / Intra-Community supply, Art. 49 of the Lithuanian VAT law",
    reasonCode: "VATEX-EU-IC",
  },
  AE: { reason: "Atvirkštinis apmokestinimas / Reverse charge", reasonCode: "VATEX-EU-AE" },
} satisfies Record<string, Omit<Category, "id">>;

function categoryOf(classifier: string | null, buyerCountry: string | null, buyerVatCode: string | null): Category {
  switch (classifier) {
    case null:
      return { id: "O", reason: "Pardavėjas nėra PVM mokėtojas / Seller not registered for VAT", reasonCode: "VATEX-EU-O" };
    case "PVM5":
      return { id: "E", ...REASONS.E };
    case "PVM12":
      return { id: "G", ...REASONS.G };
    case "PVM13":
      return { id: "K", ...REASONS.K };
    case "PVM14":
      return { id: "Z" };
    case "PVM15":
      return buyerVatCode && buyerCountry && EU.has(buyerCountry) ? { id: "AE", ...REASONS.AE } : { id: "G", ...REASONS.GS };
    case "PVM25":
      return { id: "AE", ...REASONS.AE };
    default:
      return { id: "S" };
  }
}

const money = (value: string | Decimal) => new Decimal(value).toFixed(2);
/** An amount element: `{"#text": "12.34", "@_currencyID": "EUR"}`. */
const amount = (value: string | Decimal, currency: string) => ({ "#text": money(value), "@_currencyID": currency });
const percent = (value: string | Decimal) => new Decimal(value).toFixed(2);

/** A party's electronic address, or why it has none. */
function endpoint(who: string, country: string | null, registrationCode: string | null, vatCode: string | null) {
  if (country === "LT" && registrationCode) return { "#text": registrationCode, "@_schemeID": "0200" };
  const vatCountry = vatCode?.slice(0, 2) === "EL" ? "GR" : vatCode?.slice(0, 2);
  const scheme = vatCountry ? VAT_SCHEMES[vatCountry] : undefined;
  if (vatCode && scheme) return { "#text": vatCode, "@_schemeID": scheme };
  throw new ApiError("unprocessable", `${who} has no electronic address Peppol knows: a Lithuanian company code or an EU VAT code is needed.`, {
    key: "peppol.endpoint_unknown",
    params: { party: who },
  });
}

interface PostalAddress {
  line1?: string | null;
  line2?: string | null;
  city?: string | null;
  postalCode?: string | null;
  countryCode?: string | null;
}

function postalAddress(address: PostalAddress | null, country: string) {
  return {
    ...(address?.line1 ? { "cbc:StreetName": address.line1 } : {}),
    ...(address?.line2 ? { "cbc:AdditionalStreetName": address.line2 } : {}),
    ...(address?.city ? { "cbc:CityName": address.city } : {}),
    ...(address?.postalCode ? { "cbc:PostalZone": address.postalCode } : {}),
    "cac:Country": { "cbc:IdentificationCode": address?.countryCode ?? country },
  };
}

/** UN/ECE Recommendation 20 codes of the units documents use; any other unit is "one" (C62). */
const UNITS: Record<string, string> = {
  "vnt.": "H87",
  vnt: "H87",
  pcs: "H87",
  "val.": "HUR",
  val: "HUR",
  h: "HUR",
  kg: "KGM",
  g: "GRM",
  t: "TNE",
  l: "LTR",
  m: "MTR",
  m2: "MTK",
  m3: "MTQ",
  km: "KMT",
  "d.": "DAY",
  "mėn.": "MON",
};

/** The document as Peppol BIS Billing 3.0 UBL, with its PDF embedded when asked. */
export async function saleInvoicePeppolXml(
  db: Db,
  companyId: string,
  id: string,
  options: { attachPdf?: boolean; issuer?: components["schemas"]["Account.InvoiceIssuer"] | null } = {},
): Promise<PeppolXml> {
  const [invoice, company] = await Promise.all([getSaleInvoice(db, companyId, id), db<CompaniesRow>("companies").where({ id: companyId }).first()]);
  if (!company) throw new Error(`company ${companyId} not found`);
  if (invoice.status === "draft" || invoice.number === null) {
    throw conflict("The document is a draft: only an issued document is an e-invoice (issue it first).", "sale_invoice.not_issued", { id });
  }
  const isCredit = invoice.type === "credit_note";
  const currency = invoice.currency;
  const buyer = invoice.partner;
  const buyerCountry = buyer.countryCode ?? buyer.address?.countryCode ?? null;
  const credited = invoice.creditedInvoiceId ? await getSaleInvoice(db, companyId, invoice.creditedInvoiceId) : undefined;

  // One subtotal per category and rate.
  const subtotals = new Map<string, { category: Category; rate: string; taxable: Decimal; vat: Decimal }>();
  for (const row of invoice.vatBreakdown) {
    const category = categoryOf(row.vatClassifier, buyerCountry, buyer.vatCode);
    const key = `${category.id}|${percent(row.vatRatePercent)}`;
    const s = subtotals.get(key) ?? { category, rate: percent(row.vatRatePercent), taxable: new Decimal(0), vat: new Decimal(0) };
    s.taxable = s.taxable.plus(row.taxableAmount);
    s.vat = s.vat.plus(row.vatAmount);
    subtotals.set(key, s);
  }
  const lineCategory = (l: SaleInvoice["lines"][number]) => categoryOf(l.vatClassifier, buyerCountry, buyer.vatCode);
  const taxCategory = (category: Category, rate: string, element: "cac:TaxCategory" | "cac:ClassifiedTaxCategory", withReason: boolean) => ({
    [element]: {
      "cbc:ID": category.id,
      ...(category.id === "O" ? {} : { "cbc:Percent": rate }),
      ...(withReason && category.reasonCode ? { "cbc:TaxExemptionReasonCode": category.reasonCode } : {}),
      ...(withReason && category.reason ? { "cbc:TaxExemptionReason": category.reason } : {}),
      "cac:TaxScheme": { "cbc:ID": "VAT" },
    },
  });

  const sellerVat = company.vat_code;
  const seller = {
    "cac:Party": {
      "cbc:EndpointID": endpoint(`The company ${company.name}`, company.country_code, company.code, sellerVat),
      "cac:PostalAddress": postalAddress(company.address as PostalAddress | null, company.country_code),
      ...(sellerVat && [...subtotals.values()].every((s) => s.category.id !== "O")
        ? { "cac:PartyTaxScheme": { "cbc:CompanyID": sellerVat, "cac:TaxScheme": { "cbc:ID": "VAT" } } }
        : {}),
      "cac:PartyLegalEntity": { "cbc:RegistrationName": company.name, "cbc:CompanyID": company.code },
      ...(company.email || company.phone
        ? { "cac:Contact": { ...(company.phone ? { "cbc:Telephone": company.phone } : {}), ...(company.email ? { "cbc:ElectronicMail": company.email } : {}) } }
        : {}),
    },
  };
  const notSubject = [...subtotals.values()].some((s) => s.category.id === "O");
  // The buyer's own Peppol id (partners' `peppolId`, as the partner is now: where it receives) before a derived one.
  const peppolId = (await db<PartnersRow>("partners").where({ company_id: companyId, code: buyer.code }).first("peppol_id"))?.peppol_id;
  const customer = {
    "cac:Party": {
      "cbc:EndpointID": peppolId
        ? { "#text": peppolId.slice(5), "@_schemeID": peppolId.slice(0, 4) }
        : endpoint(`The buyer ${buyer.code}`, buyerCountry, buyer.registrationCode, buyer.vatCode),
      "cac:PostalAddress": postalAddress(buyer.address, buyerCountry ?? company.country_code),
      ...(buyer.vatCode && !notSubject ? { "cac:PartyTaxScheme": { "cbc:CompanyID": buyer.vatCode, "cac:TaxScheme": { "cbc:ID": "VAT" } } } : {}),
      "cac:PartyLegalEntity": { "cbc:RegistrationName": buyer.name, ...(buyer.registrationCode ? { "cbc:CompanyID": buyer.registrationCode } : {}) },
    },
  };

  const pdf = options.attachPdf ? await saleInvoicePdf(db, companyId, id, { issuer: options.issuer }) : undefined;
  const lineElement = isCredit ? "cac:CreditNoteLine" : "cac:InvoiceLine";
  const quantityElement = isCredit ? "cbc:CreditedQuantity" : "cbc:InvoicedQuantity";
  const lines = invoice.lines.map((l) => {
    const netPrice = new Decimal(l.unitPriceExclVat).times(new Decimal(100).minus(l.discountPercent)).dividedBy(100);
    return {
      "cbc:ID": String(l.lineNo),
      [quantityElement]: { "#text": l.quantity, "@_unitCode": UNITS[l.unit] ?? "C62" },
      "cbc:LineExtensionAmount": amount(l.netAmount, currency),
      "cac:Item": {
        "cbc:Name": l.description.slice(0, 200),
        ...(l.itemCode ? { "cac:SellersItemIdentification": { "cbc:ID": l.itemCode } } : {}),
        ...taxCategory(lineCategory(l), percent(l.vatRatePercent), "cac:ClassifiedTaxCategory", false),
      },
      "cac:Price": { "cbc:PriceAmount": { "#text": netPrice.toFixed(), "@_currencyID": currency } },
    };
  });

  const vatEur = currency !== "EUR" ? await postedVatEur(db, companyId, invoice) : undefined;
  const root = isCredit ? "CreditNote" : "Invoice";
  const document = {
    "?xml": { "@_version": "1.0", "@_encoding": "UTF-8" },
    [root]: {
      "@_xmlns": `urn:oasis:names:specification:ubl:schema:xsd:${root}-2`,
      "@_xmlns:cac": "urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2",
      "@_xmlns:cbc": "urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2",
      "cbc:CustomizationID": CUSTOMIZATION_ID,
      "cbc:ProfileID": PROFILE_ID,
      "cbc:ID": invoice.number,
      "cbc:IssueDate": invoice.issueDate,
      ...(isCredit ? {} : { "cbc:DueDate": invoice.dueDate }),
      [isCredit ? "cbc:CreditNoteTypeCode" : "cbc:InvoiceTypeCode"]: isCredit ? "381" : invoice.type === "debit_note" ? "383" : "380",
      ...(invoice.notes ? { "cbc:Note": invoice.notes } : {}),
      "cbc:DocumentCurrencyCode": currency,
      ...(vatEur ? { "cbc:TaxCurrencyCode": "EUR" } : {}),
      // Peppol asks for a buyer reference or an order reference (PEPPOL-EN16931-R003); a document without the
      // buyer's own reference carries the buyer's code with the seller.
      "cbc:BuyerReference": buyer.code,
      ...(credited?.number
        ? { "cac:BillingReference": { "cac:InvoiceDocumentReference": { "cbc:ID": credited.number, "cbc:IssueDate": credited.issueDate } } }
        : {}),
      ...(pdf
        ? {
            "cac:AdditionalDocumentReference": {
              "cbc:ID": invoice.number,
              "cbc:DocumentDescription": "PDF",
              "cac:Attachment": {
                "cbc:EmbeddedDocumentBinaryObject": { "#text": pdf.contentBase64, "@_mimeCode": "application/pdf", "@_filename": pdf.fileName },
              },
            },
          }
        : {}),
      "cac:AccountingSupplierParty": seller,
      "cac:AccountingCustomerParty": customer,
      "cac:Delivery": {
        "cbc:ActualDeliveryDate": invoice.supplyDate,
        ...(buyerCountry ? { "cac:DeliveryLocation": { "cac:Address": { "cac:Country": { "cbc:IdentificationCode": buyerCountry } } } } : {}),
      },
      ...(company.iban && !isCredit
        ? {
            "cac:PaymentMeans": {
              "cbc:PaymentMeansCode": { "#text": "58", "@_name": "SEPA credit transfer" },
              "cbc:PaymentID": invoice.number,
              "cac:PayeeFinancialAccount": { "cbc:ID": company.iban, "cbc:Name": company.name },
            },
          }
        : {}),
      ...(isCredit ? {} : { "cac:PaymentTerms": { "cbc:Note": `Apmokėti iki / Due ${invoice.dueDate}` } }),
      "cac:TaxTotal": [
        {
          "cbc:TaxAmount": amount(invoice.vatTotal, currency),
          "cac:TaxSubtotal": [...subtotals.values()].map((s) => ({
            "cbc:TaxableAmount": amount(s.taxable, currency),
            "cbc:TaxAmount": amount(s.vat, currency),
            ...taxCategory(s.category, s.rate, "cac:TaxCategory", true),
          })),
        },
        ...(vatEur ? [{ "cbc:TaxAmount": amount(vatEur, "EUR") }] : []),
      ],
      "cac:LegalMonetaryTotal": {
        "cbc:LineExtensionAmount": amount(invoice.netTotal, currency),
        "cbc:TaxExclusiveAmount": amount(invoice.netTotal, currency),
        "cbc:TaxInclusiveAmount": amount(invoice.grossTotal, currency),
        "cbc:PayableAmount": amount(invoice.grossTotal, currency),
      },
      [lineElement]: lines,
    },
  };
  const xml = new XMLBuilder({ ignoreAttributes: false, attributeNamePrefix: "@_", format: true, suppressEmptyNode: true }).build(document);
  const fileName = `${invoice.number.replace(/[^\p{L}\p{N}._-]+/gu, "_")}.xml`;
  return { fileName, contentType: "application/xml", contentBase64: Buffer.from(xml, "utf8").toString("base64") };
}
