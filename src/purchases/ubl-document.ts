// A parsed UBL Invoice or CreditNote (./ubl-read.ts) as the plain values of EN 16931's business terms (BT-…) that the
// rules (./ubl-rules.ts) check and the import (./ubl-import.ts) maps. Values are kept as written (texts, decimal
// strings); whether they are there and well-formed is the rules' concern, not this reader's.
import { at, attr, child, children, type Node, type ParsedUbl, text } from "./ubl-read.js";

export interface UblTaxCategory {
  /** UNCL 5305 code: S, Z, E, AE, K, G, O, L, M. */
  id?: string;
  percent?: string;
  exemptionReason?: string;
  exemptionReasonCode?: string;
  /** The tax scheme (VAT). */
  scheme?: string;
}

export interface UblAmount {
  value?: string;
  currency?: string;
}

export interface UblAddress {
  line1?: string;
  line2?: string;
  city?: string;
  postalCode?: string;
  countryCode?: string;
}

export interface UblParty {
  endpoint?: { value?: string; scheme?: string };
  /** BT-29 and the like: party identifiers with their schemes. */
  identifiers: { value?: string; scheme?: string }[];
  /** BT-27/44: the legal name. */
  registrationName?: string;
  /** BT-28: the trading name. */
  tradingName?: string;
  /** BT-31/48: VAT identifiers (PartyTaxScheme with scheme VAT). */
  vatIds: string[];
  /** BT-30/47: legal registration identifier. */
  legalId?: { value?: string; scheme?: string };
  /** Whether cac:PostalAddress is there (BR-08, BR-10). */
  hasAddress: boolean;
  address: UblAddress;
  email?: string;
  phone?: string;
}

export interface UblAllowanceCharge {
  charge: boolean;
  indicator?: string;
  amount: UblAmount;
  reason?: string;
  category?: UblTaxCategory;
}

export interface UblLine {
  id?: string;
  quantity?: string;
  unitCode?: string;
  net: UblAmount;
  name?: string;
  description?: string;
  sellersItemId?: string;
  category?: UblTaxCategory;
  price: UblAmount;
  baseQuantity?: string;
  allowanceCharges: UblAllowanceCharge[];
}

export interface UblSubtotal {
  taxable: UblAmount;
  tax: UblAmount;
  category?: UblTaxCategory;
}

export interface UblAttachment {
  id?: string;
  description?: string;
  mimeCode?: string;
  fileName?: string;
  base64?: string;
}

export interface UblDocument {
  kind: "Invoice" | "CreditNote";
  customizationId?: string;
  profileId?: string;
  number?: string;
  issueDate?: string;
  dueDate?: string;
  taxPointDate?: string;
  deliveryDate?: string;
  typeCode?: string;
  currency?: string;
  taxCurrency?: string;
  notes: string[];
  buyerReference?: string;
  orderReference?: string;
  billingReferences: { id?: string; issueDate?: string }[];
  supplier?: UblParty;
  customer?: UblParty;
  lines: UblLine[];
  allowanceCharges: UblAllowanceCharge[];
  taxTotals: { tax: UblAmount; subtotals: UblSubtotal[] }[];
  totals: {
    present: boolean;
    lineExtension: UblAmount;
    taxExclusive: UblAmount;
    taxInclusive: UblAmount;
    allowanceTotal: UblAmount;
    chargeTotal: UblAmount;
    prepaid: UblAmount;
    rounding: UblAmount;
    payable: UblAmount;
  };
  attachments: UblAttachment[];
  /** Every `currencyID` of an amount outside the second TaxTotal (the VAT in the accounting currency). */
  amountCurrencies: string[];
}

const amount = (value: unknown): UblAmount => ({ value: text(value), currency: attr(value, "currencyID") });

function category(node: Node | undefined): UblTaxCategory | undefined {
  if (!node) return undefined;
  return {
    id: text(node.ID),
    percent: text(node.Percent),
    exemptionReason: text(node.TaxExemptionReason),
    exemptionReasonCode: text(node.TaxExemptionReasonCode),
    scheme: text(at(node, "TaxScheme", "ID")),
  };
}

function allowanceCharge(node: Node): UblAllowanceCharge {
  const indicator = text(node.ChargeIndicator);
  return {
    charge: indicator === "true",
    indicator,
    amount: amount(node.Amount),
    reason: text(node.AllowanceChargeReason) ?? text(node.AllowanceChargeReasonCode),
    category: category(child(node, "TaxCategory")),
  };
}

function party(node: Node | undefined): UblParty | undefined {
  const p = child(node, "Party");
  if (!p) return undefined;
  const address = child(p, "PostalAddress");
  return {
    endpoint: p.EndpointID === undefined ? undefined : { value: text(p.EndpointID), scheme: attr(p.EndpointID, "schemeID") },
    identifiers: children(p, "PartyIdentification").map((i) => ({ value: text(i.ID), scheme: attr(i.ID, "schemeID") })),
    registrationName: text(at(p, "PartyLegalEntity", "RegistrationName")),
    tradingName: text(at(p, "PartyName", "Name")),
    vatIds: children(p, "PartyTaxScheme")
      .filter((s) => (text(at(s, "TaxScheme", "ID")) ?? "").toUpperCase() === "VAT")
      .flatMap((s) => {
        const id = text(s.CompanyID);
        return id ? [id] : [];
      }),
    legalId:
      at(p, "PartyLegalEntity", "CompanyID") === undefined
        ? undefined
        : { value: text(at(p, "PartyLegalEntity", "CompanyID")), scheme: attr(at(p, "PartyLegalEntity", "CompanyID"), "schemeID") },
    hasAddress: address !== undefined,
    address: {
      line1: text(address?.StreetName),
      line2: text(address?.AdditionalStreetName),
      city: text(address?.CityName),
      postalCode: text(address?.PostalZone),
      countryCode: text(at(address, "Country", "IdentificationCode")),
    },
    email: text(at(p, "Contact", "ElectronicMail")),
    phone: text(at(p, "Contact", "Telephone")),
  };
}

/** Every currencyID in the tree, but the second TaxTotal's (BT-111, the VAT in the accounting currency). */
function currencies(node: unknown, out: string[]): void {
  if (Array.isArray(node)) {
    for (const n of node) currencies(n, out);
    return;
  }
  if (!node || typeof node !== "object") return;
  for (const [key, value] of Object.entries(node as Node)) {
    if (key === "@_currencyID" && typeof value === "string") out.push(value.trim());
    else if (key !== "#text" && !key.startsWith("@_")) currencies(value, out);
  }
}

export function ublDocument(parsed: ParsedUbl): UblDocument {
  const r = parsed.root;
  const isCredit = parsed.kind === "CreditNote";
  const lines = children(r, isCredit ? "CreditNoteLine" : "InvoiceLine").map((l): UblLine => {
    const quantityNode = l[isCredit ? "CreditedQuantity" : "InvoicedQuantity"];
    const item = child(l, "Item");
    return {
      id: text(l.ID),
      quantity: text(quantityNode),
      unitCode: attr(quantityNode, "unitCode"),
      net: amount(l.LineExtensionAmount),
      name: text(item?.Name),
      description: text(item?.Description),
      sellersItemId: text(at(item, "SellersItemIdentification", "ID")),
      category: category(child(item, "ClassifiedTaxCategory")),
      price: amount(at(l, "Price", "PriceAmount")),
      baseQuantity: text(at(l, "Price", "BaseQuantity")),
      allowanceCharges: children(l, "AllowanceCharge").map(allowanceCharge),
    };
  });
  const taxTotals = children(r, "TaxTotal").map((t) => ({
    tax: amount(t.TaxAmount),
    subtotals: children(t, "TaxSubtotal").map((s) => ({
      taxable: amount(s.TaxableAmount),
      tax: amount(s.TaxAmount),
      category: category(child(s, "TaxCategory")),
    })),
  }));
  const totals = child(r, "LegalMonetaryTotal");
  const amountCurrencies: string[] = [];
  for (const [key, value] of Object.entries(r)) {
    if (key === "TaxTotal" && Array.isArray(value)) {
      // The TaxTotal without subtotals in the tax currency (BT-111) is the one amount in another currency.
      const taxCurrency = text(r.TaxCurrencyCode);
      for (const t of value) {
        const found: string[] = [];
        currencies(t, found);
        amountCurrencies.push(...found.filter((c) => !(taxCurrency && c === taxCurrency && !(t as Node).TaxSubtotal)));
      }
    } else if (key !== "AdditionalDocumentReference") currencies(value, amountCurrencies);
  }
  return {
    kind: parsed.kind,
    customizationId: text(r.CustomizationID),
    profileId: text(r.ProfileID),
    number: text(r.ID),
    issueDate: text(r.IssueDate),
    dueDate: text(r.DueDate) ?? text(at(r, "PaymentMeans", "PaymentDueDate")),
    taxPointDate: text(r.TaxPointDate),
    deliveryDate: text(at(r, "Delivery", "ActualDeliveryDate")),
    typeCode: text(r[isCredit ? "CreditNoteTypeCode" : "InvoiceTypeCode"]),
    currency: text(r.DocumentCurrencyCode),
    taxCurrency: text(r.TaxCurrencyCode),
    notes: children(r, "Note").flatMap((n) => {
      const t = text(n);
      return t ? [t] : [];
    }),
    buyerReference: text(r.BuyerReference),
    orderReference: text(at(r, "OrderReference", "ID")),
    billingReferences: children(r, "BillingReference").map((b) => ({
      id: text(at(b, "InvoiceDocumentReference", "ID")),
      issueDate: text(at(b, "InvoiceDocumentReference", "IssueDate")),
    })),
    supplier: party(child(r, "AccountingSupplierParty")),
    customer: party(child(r, "AccountingCustomerParty")),
    lines,
    allowanceCharges: children(r, "AllowanceCharge").map(allowanceCharge),
    taxTotals,
    totals: {
      present: totals !== undefined,
      lineExtension: amount(totals?.LineExtensionAmount),
      taxExclusive: amount(totals?.TaxExclusiveAmount),
      taxInclusive: amount(totals?.TaxInclusiveAmount),
      allowanceTotal: amount(totals?.AllowanceTotalAmount),
      chargeTotal: amount(totals?.ChargeTotalAmount),
      prepaid: amount(totals?.PrepaidAmount),
      rounding: amount(totals?.PayableRoundingAmount),
      payable: amount(totals?.PayableAmount),
    },
    attachments: children(r, "AdditionalDocumentReference").flatMap((d) => {
      const object = at(d, "Attachment", "EmbeddedDocumentBinaryObject");
      if (object === undefined) return [];
      return [
        {
          id: text(d.ID),
          description: text(d.DocumentDescription),
          mimeCode: attr(object, "mimeCode"),
          fileName: attr(object, "filename"),
          base64: text(object),
        },
      ];
    }),
    amountCurrencies,
  };
}
