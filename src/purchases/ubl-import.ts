// `purchases/invoices/import-ubl` (issue 25): a supplier's Peppol BIS Billing 3.0 / UBL 2.1 Invoice or CreditNote as a
// purchase draft, in the request's transaction: the file is read (./ubl-read.ts), checked by the import's own rules
// (./ubl-rules.ts: 422 `purchase_invoice.ubl_rules_failed` listing the rule ids), its supplier found among the
// partners by VAT code or company code (or created when asked), its lines mapped back to VAT classifiers, the draft
// created by the one create path (./invoices.ts: the same checks as `purchases/invoices/create`, the supplier's
// number unique per supplier and type: a second import is 409), and the file and the files it embeds kept as the
// draft's attachments (./attachments.ts). Nothing is stored when anything is refused.
//
// VAT categories (UNCL 5305) back to classifiers and the document's VAT treatment — the inverse of the export's table
// (src/sales/peppol.ts), from the buyer's side:
//   S from a supplier of the company's country     standard: the rate as written, its ordinary classifier (21 PVM1 …)
//   Z / E                                           PVM14 (0 %) / PVM5 (exempt), on the document's treatment
//   O                                               PVM15 (outside the scope of Lithuanian VAT)
//   AE from a supplier of the company's country    reverse_charge, PVM25 (domestic reverse charge, Art. 96)
//   AE from another EU state / outside the EU      reverse_charge, PVM21 / PVM20 (services: goods from the EU are K)
//   K (intra-Community supply of goods)             reverse_charge, PVM16 (intra-Community acquisition)
//   G, L, M (export from the supplier's side)       import (the VAT is paid at customs: add it with the customs
//                                                   declaration on the draft), lines at 0 % PVM14
//   S from a foreign supplier                       the supplier's own VAT (e.g. Swedish 25 %) is not Lithuanian input
//                                                   VAT and cannot be deducted here: the document is `exempt`, each
//                                                   line at 0 % PVM15 (supply outside Lithuania), and the foreign VAT of
//                                                   each rate one more 0 % PVM15 line "VAT 25 % charged by the supplier",
//                                                   so it is part of the cost and the payable is what the supplier asks.
// AE/K lines do not mix with other categories, nor G/L/M with S (422 `purchase_invoice.ubl_vat_unsupported`).
// A line of a negative amount, and a document-level allowance, cannot be a purchase line (nets are never negative): the
// lines of such a category and rate are taken together as one line of their sum, named after them. A document-level
// charge is a line of its own.
import type { components } from "../../generated/types.js";
import type { CompanyContext } from "../auth/principal.js";
import type { Db } from "../db/connection.js";
import type { PartnersRow } from "../db/rows.js";
import { createPartner } from "../partners/index.js";
import { EU_MEMBER_STATES } from "../reference/index.js";
import { Decimal } from "../shared/decimal.js";
import { ApiError, unprocessable } from "../shared/errors.js";
import { countryCodeProblem, ltRegistrationCodeProblem, vatCodeProblem } from "../shared/identifiers.js";
import { type NewAttachment, storeAttachments } from "./attachments.js";
import { createPurchaseInvoice } from "./invoices.js";
import type { UblAllowanceCharge, UblDocument, UblLine, UblParty, UblTaxCategory } from "./ubl-document.js";
import { ublDocument } from "./ubl-document.js";
import { decodeBase64, MAX_UBL_BYTES, parseUbl } from "./ubl-read.js";
import { dec, isDate, ublRuleFailures } from "./ubl-rules.js";

type ImportRequest = components["schemas"]["Purchases.PurchaseInvoiceUblImportRequest"];
type ImportResult = components["schemas"]["Purchases.PurchaseInvoiceUblImport"];
type CreateInput = components["schemas"]["Purchases.PurchaseInvoiceCreateRequest"];
type VatTreatment = NonNullable<CreateInput["vatTreatment"]>;
type LineInput = CreateInput["lines"][number];

/** UN/ECE Recommendation 20 units back to the units documents use here (the export's table, inverted). */
const UNITS: Record<string, string> = {
  H87: "vnt.",
  C62: "vnt.",
  EA: "vnt.",
  HUR: "val.",
  KGM: "kg",
  GRM: "g",
  TNE: "t",
  LTR: "l",
  MTR: "m",
  MTK: "m2",
  MTQ: "m3",
  KMT: "km",
  DAY: "d.",
  MON: "mėn.",
};

const vatUnsupported = (why: string, categories: string[]) =>
  new ApiError("unprocessable", `The e-invoice's VAT cannot be recorded as one purchase document: ${why}. Nothing was imported.`, {
    key: "purchase_invoice.ubl_vat_unsupported",
    params: { categories },
  });

/** Lines a purchase document holds (`purchases/invoices/create`'s 1 to 500). */
const MAX_LINES = 500;
const normalized = (id: string) => id.replace(/[\s-]/g, "").toUpperCase();
const VAT_LIKE = /^[A-Z]{2}[0-9A-Z+*.]{2,13}$/;

/** The supplier's identifiers as the file gives them: VAT codes and company codes (its own, or its endpoint's). */
function supplierIds(p: UblParty) {
  const vat = new Set(p.vatIds.map(normalized).filter((v) => VAT_LIKE.test(v)));
  const codes = new Set<string>();
  if (p.legalId?.value) codes.add(p.legalId.value.trim());
  if (p.endpoint?.value) {
    const value = normalized(p.endpoint.value);
    if (p.endpoint.scheme === "0200") codes.add(p.endpoint.value.trim());
    else if (VAT_LIKE.test(value) && p.endpoint.scheme !== "0088") vat.add(value);
  }
  return { vat: [...vat], codes: [...codes] };
}

/** The partner the file's supplier is, created when asked and none is; 422 naming the supplier otherwise. */
async function findSupplier(trx: Db, companyId: string, p: UblParty, create: boolean): Promise<{ partner: PartnersRow; created: boolean }> {
  const ids = supplierIds(p);
  const name = p.registrationName ?? p.tradingName ?? "";
  const found =
    ids.vat.length || ids.codes.length
      ? await trx<PartnersRow>("partners")
          .where({ company_id: companyId })
          .andWhere((q) => {
            if (ids.vat.length) q.orWhereIn("vat_code", ids.vat);
            if (ids.codes.length) q.orWhereIn("registration_code", ids.codes);
          })
          .orderBy("code")
      : [];
  const suppliers = found.filter((r) => r.is_supplier);
  const candidates = suppliers.length ? suppliers : found;
  if (candidates.length > 1) {
    throw unprocessable(
      `The supplier ${name} is several partners (${candidates.map((c) => c.code).join(", ")}) by its VAT code or company code; keep one of them. Nothing was imported.`,
      "purchase_invoice.ubl_supplier_ambiguous",
      { partnerCodes: candidates.map((c) => c.code), vatCodes: ids.vat, registrationCodes: ids.codes },
    );
  }
  if (candidates.length === 1) return { partner: candidates[0], created: false };
  if (!create) {
    throw new ApiError(
      "unprocessable",
      `The supplier ${name} (VAT code ${ids.vat.join(", ") || "none"}, company code ${ids.codes.join(", ") || "none"}) is no partner of the company: create it (partners/create) or import with createSupplier: true. Nothing was imported.`,
      { key: "purchase_invoice.ubl_supplier_unknown", params: { name, vatCodes: ids.vat, registrationCodes: ids.codes } },
    );
  }
  const country = p.address.countryCode && !countryCodeProblem(p.address.countryCode) ? p.address.countryCode : undefined;
  const vatCode = ids.vat.find((v) => !vatCodeProblem(v));
  const registrationCode = ids.codes.find((c) => c.length <= 64 && (country !== "LT" || !ltRegistrationCodeProblem(c, false)));
  // Its code: the VAT code or the company code, unless a partner has it already (then with a number after it).
  const base =
    (vatCode ??
      registrationCode ??
      normalized(name)
        .replace(/[^A-Z0-9]+/g, "")
        .slice(0, 20)) ||
    "SUPPLIER";
  const taken = new Set(
    await trx("partners")
      .where({ company_id: companyId })
      .andWhere("code", "like", `${base.slice(0, 56)}%`)
      .pluck("code"),
  );
  let code = base.slice(0, 64);
  for (let n = 2; taken.has(code); n++) code = `${base.slice(0, 56)}-${n}`;
  const a = p.address;
  const address =
    a.line1 && a.city && a.postalCode && country
      ? {
          line1: a.line1.slice(0, 255),
          ...(a.line2 ? { line2: a.line2.slice(0, 255) } : {}),
          city: a.city.slice(0, 128),
          postalCode: a.postalCode.slice(0, 16),
          countryCode: country,
        }
      : undefined;
  const email = p.email && p.email.length <= 254 && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(p.email) ? p.email : undefined;
  await createPartner(trx, companyId, {
    code,
    name: name.slice(0, 200),
    ...(vatCode ? { vatCode } : {}),
    ...(registrationCode ? { registrationCode } : {}),
    ...(country ? { countryCode: country } : {}),
    ...(address ? { address } : {}),
    ...(email ? { email } : {}),
    isCustomer: false,
    isSupplier: true,
    isPrivatePerson: false,
    paymentTermDays: 0,
    documentLanguage: "lt-en",
  });
  const partner = await trx<PartnersRow>("partners").where({ company_id: companyId, code }).first();
  return { partner: partner!, created: true };
}

const rateOf = (c: UblTaxCategory | undefined) => dec(c?.percent) ?? new Decimal(0);
const groupKey = (c: UblTaxCategory | undefined) => `${c?.id ?? ""}|${rateOf(c).toFixed(4)}`;

/** The document's VAT treatment and each category's classifier, from its categories and where the supplier is. */
function vatMapping(doc: UblDocument, supplierCountry: string | null, companyCountry: string) {
  const categories = [...new Set([...doc.lines.map((l) => l.category?.id ?? ""), ...doc.allowanceCharges.map((a) => a.category?.id ?? "")])].sort();
  const domestic = supplierCountry === companyCountry;
  const reverse = categories.filter((c) => c === "AE" || c === "K");
  const exported = categories.filter((c) => c === "G" || c === "L" || c === "M");
  if (reverse.length && reverse.length !== categories.length)
    throw vatUnsupported("reverse-charge lines (AE, K) are mixed with lines of other VAT categories", categories);
  if (exported.length && categories.includes("S")) throw vatUnsupported("export lines (G) are mixed with lines the supplier charged VAT on (S)", categories);
  const treatment: VatTreatment = reverse.length ? "reverse_charge" : exported.length ? "import" : domestic ? "standard" : "exempt";
  const euSupplier = supplierCountry !== null && EU_MEMBER_STATES.has(supplierCountry);
  const classifier = (id: string): string | undefined => {
    switch (id) {
      case "S":
        return domestic ? undefined : "PVM15";
      case "Z":
      case "G":
      case "L":
      case "M":
        return "PVM14";
      case "E":
        return "PVM5";
      case "K":
        return "PVM16";
      case "AE":
        return domestic ? "PVM25" : euSupplier ? "PVM21" : "PVM20";
      default:
        return "PVM15";
    }
  };
  return { treatment, classifier, domestic, categories };
}

const money = (d: Decimal) => d.toFixed(2);

/** A line as the file gives it, when it can be one purchase line as it is: quantity × price = its net. */
function plainLine(l: UblLine): { quantity: string; unitPriceExclVat: string } | undefined {
  const quantity = dec(l.quantity);
  const price = dec(l.price.value);
  const base = l.baseQuantity === undefined ? new Decimal(1) : dec(l.baseQuantity);
  const net = dec(l.net.value);
  if (!quantity || !price || !base || !net || !quantity.greaterThan(0) || base.isZero()) return undefined;
  const unit = price.dividedBy(base);
  if (quantity.decimalPlaces() > 4 || unit.decimalPlaces() > 4) return undefined;
  if (!quantity.times(unit).toDecimalPlaces(2, Decimal.ROUND_HALF_UP).equals(net)) return undefined;
  return { quantity: quantity.toFixed(), unitPriceExclVat: unit.toFixed() };
}

const describe = (l: UblLine) => (l.name || l.description || `Line ${l.id ?? ""}`).slice(0, 1000);

/** The purchase lines of the file, with the notes of what was taken together. */
function purchaseLines(doc: UblDocument, map: ReturnType<typeof vatMapping>, supplierCountry: string | null) {
  const lines: LineInput[] = [];
  const notes: string[] = [];
  const vatOf = (c: UblTaxCategory | undefined): Pick<LineInput, "vatRatePercent" | "vatClassifier"> => {
    const id = c?.id ?? "O";
    const classifier = map.classifier(id);
    if (map.treatment === "reverse_charge") return { vatClassifier: classifier };
    if (id === "S" && map.domestic) return { vatRatePercent: rateOf(c).toFixed(2) };
    return { vatRatePercent: "0", vatClassifier: classifier };
  };
  const line = (l: Omit<LineInput, "vatDeductible">): LineInput => ({ ...l, vatDeductible: true });
  const groups = new Map<string, { category?: UblTaxCategory; lines: UblLine[]; allowances: UblAllowanceCharge[]; charges: UblAllowanceCharge[] }>();
  const group = (c: UblTaxCategory | undefined) => {
    const key = groupKey(c);
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { category: c, lines: [], allowances: [], charges: [] }));
    return g;
  };
  for (const l of doc.lines) group(l.category).lines.push(l);
  for (const a of doc.allowanceCharges) (a.charge ? group(a.category).charges : group(a.category).allowances).push(a);
  for (const g of groups.values()) {
    const vat = vatOf(g.category);
    const negative = g.lines.some((l) => (dec(l.net.value) ?? new Decimal(0)).isNegative() || !(dec(l.quantity)?.greaterThan(0) ?? false));
    if (negative || g.allowances.length) {
      const total = g.lines
        .reduce((s, l) => s.plus(dec(l.net.value) ?? 0), new Decimal(0))
        .plus(g.charges.reduce((s, a) => s.plus(dec(a.amount.value) ?? 0), new Decimal(0)))
        .minus(g.allowances.reduce((s, a) => s.plus(dec(a.amount.value) ?? 0), new Decimal(0)));
      if (total.isNegative()) {
        throw vatUnsupported(`the lines of VAT category ${g.category?.id} ${g.category?.percent ?? ""} add up to ${money(total)}, below zero`, map.categories);
      }
      const parts = [
        ...g.lines.map((l) => `${describe(l)} ${l.net.value}`),
        ...g.charges.map((a) => `${a.reason || "charge"} +${a.amount.value}`),
        ...g.allowances.map((a) => `${a.reason || "allowance"} -${a.amount.value}`),
      ];
      lines.push(line({ description: parts.join("; ").slice(0, 1000), quantity: "1", unit: "vnt.", unitPriceExclVat: money(total), ...vat }));
      notes.push(
        `Lines ${g.lines.map((l) => l.id).join(", ")} of VAT ${g.category?.id} ${g.category?.percent ?? ""} taken together (a negative line or an allowance).`,
      );
      continue;
    }
    for (const l of g.lines) {
      const plain = plainLine(l);
      const unit = l.unitCode ? (UNITS[l.unitCode] ?? l.unitCode.slice(0, 16)) : "vnt.";
      if (plain) lines.push(line({ description: describe(l), ...plain, unit, ...vat }));
      else {
        const what = `${l.quantity} ${l.unitCode ?? ""} × ${l.price.value}${l.baseQuantity ? ` / ${l.baseQuantity}` : ""}`;
        lines.push(
          line({ description: `${describe(l)} (${what})`.slice(0, 1000), quantity: "1", unit: "vnt.", unitPriceExclVat: dec(l.net.value)!.toFixed(2), ...vat }),
        );
      }
    }
    for (const a of g.charges)
      lines.push(
        line({ description: (a.reason || "Charge").slice(0, 1000), quantity: "1", unit: "vnt.", unitPriceExclVat: money(dec(a.amount.value)!), ...vat }),
      );
  }
  // The foreign supplier's own VAT: not Lithuanian input VAT, part of what the supply cost.
  if (!map.domestic && map.treatment === "exempt") {
    const main = doc.taxTotals.find((t) => t.subtotals.length > 0);
    for (const s of main?.subtotals ?? []) {
      const tax = dec(s.tax.value);
      if (s.category?.id !== "S" || !tax || tax.isZero()) continue;
      const rate = rateOf(s.category).toFixed();
      lines.push(
        line({
          description: `PVM ${rate} %, kurį priskaičiavo tiekėjas (${supplierCountry ?? "?"}), neatskaitomas / VAT ${rate} % charged by the supplier (${supplierCountry ?? "?"}), not deductible in Lithuania`,
          quantity: "1",
          unit: "vnt.",
          unitPriceExclVat: money(tax),
          vatRatePercent: "0",
          vatClassifier: "PVM15",
        }),
      );
    }
  }
  return { lines, notes };
}

/** The embedded files and the e-invoice itself, as they will be kept. */
function attachmentsOf(doc: UblDocument, bytes: Buffer): NewAttachment[] {
  const safe = (name: string) => name.replace(/[\u0000-\u001f/\\]+/g, "_").slice(0, 255) || "file";
  const files: NewAttachment[] = [
    {
      kind: "einvoice",
      fileName: safe(`${doc.number ?? "e-invoice"}.xml`),
      contentType: "application/xml",
      description: "Peppol BIS 3.0 e-invoice as received",
      content: bytes,
    },
  ];
  doc.attachments.forEach((a, i) => {
    let content: Buffer;
    try {
      // Embedded base64 is often wrapped and indented: its white space is not part of it.
      content = decodeBase64((a.base64 ?? "").replace(/\s+/g, ""), `embedded document ${i + 1}`, MAX_UBL_BYTES);
    } catch {
      throw new ApiError("unprocessable", `The embedded document ${i + 1} (${a.id ?? "no id"}) is not base64. Nothing was imported.`, {
        key: "purchase_invoice.ubl_unreadable",
        params: { reason: `the embedded document ${i + 1} is not base64` },
      });
    }
    if (content.length === 0) return;
    files.push({
      kind: "embedded",
      fileName: safe(a.fileName ?? `${a.id ?? `attachment-${i + 1}`}`),
      contentType: (a.mimeCode ?? "application/octet-stream").slice(0, 255),
      description: a.description?.slice(0, 1000) ?? null,
      content,
    });
  });
  return files;
}

export async function importUblPurchaseInvoice(trx: Db, company: CompanyContext, input: ImportRequest): Promise<ImportResult> {
  const bytes = decodeBase64(input.contentBase64, "contentBase64");
  const doc = ublDocument(parseUbl(bytes));
  const failures = ublRuleFailures(doc);
  if (failures.length) {
    const rules = [...new Set(failures.map((f) => f.rule))].sort();
    throw new ApiError(
      "unprocessable",
      `The e-invoice fails ${rules.length} rule(s) of EN 16931 / Peppol BIS 3.0: ${rules.join(", ")}. Nothing was imported.`,
      {
        key: "purchase_invoice.ubl_rules_failed",
        params: { rules, failures: failures.slice(0, 100) },
      },
    );
  }
  const { partner, created } = await findSupplier(trx, company.id, doc.supplier!, input.createSupplier ?? false);
  const supplierCountry =
    doc.supplier?.address.countryCode ?? partner.country_code ?? (partner.vat_code ? partner.vat_code.slice(0, 2).replace("EL", "GR") : null);
  const map = vatMapping(doc, supplierCountry, company.countryCode);
  const { lines, notes } = purchaseLines(doc, map, supplierCountry);
  if (lines.length > MAX_LINES) {
    throw unprocessable(
      `The e-invoice comes to ${lines.length} purchase lines; a purchase document holds at most ${MAX_LINES}. Nothing was imported.`,
      "purchase_invoice.ubl_too_many_lines",
      { lines: lines.length, maxLines: MAX_LINES },
    );
  }

  const isCredit = doc.kind === "CreditNote" || doc.typeCode === "381";
  const type = isCredit ? "credit_note" : doc.typeCode === "383" ? "debit_note" : "invoice";
  let creditedInvoiceId: string | undefined;
  if (type !== "invoice") {
    const reference = doc.billingReferences.find((b) => b.id)?.id;
    const target = reference
      ? await trx("purchase_invoices").where({ company_id: company.id, partner_code: partner.code, type: "invoice", document_number: reference }).first("id")
      : undefined;
    if (!target) {
      throw unprocessable(
        `The ${type.replace("_", " ")} corrects ${reference ? `the invoice ${reference}` : "an invoice it does not name (cac:BillingReference)"}, which is not recorded for ${partner.code}: import or record that invoice first. Nothing was imported.`,
        "purchase_invoice.ubl_credited_invoice_unknown",
        { partnerCode: partner.code, reference: reference ?? null },
      );
    }
    creditedInvoiceId = target.id as string;
  }
  const issueDate = doc.issueDate!;
  // The tax point: the VAT point date, else the delivery date, when not after the document date (the supply's day).
  const taxPoint = [doc.taxPointDate, doc.deliveryDate].find((d): d is string => d !== undefined && isDate(d) && d <= issueDate);
  const header = [
    `E-invoice ${doc.number} imported (Peppol BIS 3.0)`,
    doc.buyerReference ? `buyer reference ${doc.buyerReference}` : undefined,
    doc.orderReference ? `order ${doc.orderReference}` : undefined,
  ]
    .filter(Boolean)
    .join("; ");
  const draft = await createPurchaseInvoice(trx, company, {
    type,
    partnerCode: partner.code,
    documentNumber: doc.number!.slice(0, 64),
    documentDate: issueDate,
    ...(input.accountingDate ? { accountingDate: input.accountingDate } : {}),
    ...(taxPoint && type === "invoice" ? { supplyDate: taxPoint } : {}),
    ...(doc.dueDate && isDate(doc.dueDate) && type !== "credit_note" ? { dueDate: doc.dueDate } : {}),
    currency: doc.currency!,
    vatTreatment: map.treatment,
    ...(creditedInvoiceId ? { creditedInvoiceId } : {}),
    notes: [header, ...notes, ...doc.notes].join("\n").slice(0, 2000),
    lines,
  });
  // What the supplier asks must be what the draft says: the gross, and on a standard document the VAT.
  const docVat = dec(doc.taxTotals.find((t) => t.subtotals.length > 0)?.tax.value) ?? new Decimal(0);
  const docGross = dec(doc.totals.taxInclusive.value)!;
  const grossDiffers = !new Decimal(draft.grossTotal).equals(map.treatment === "standard" || map.treatment === "exempt" ? docGross : docGross.minus(docVat));
  if (grossDiffers || (map.treatment === "standard" && !new Decimal(draft.vatTotal).equals(docVat))) {
    throw new ApiError(
      "unprocessable",
      `The e-invoice's totals (VAT ${money(docVat)}, gross ${money(docGross)}) are not what its lines come to here (VAT ${draft.vatTotal}, gross ${draft.grossTotal}): VAT rounded another way than once per rate. Nothing was imported.`,
      {
        key: "purchase_invoice.ubl_totals_differ",
        params: { document: { vatTotal: money(docVat), grossTotal: money(docGross) }, computed: { vatTotal: draft.vatTotal, grossTotal: draft.grossTotal } },
      },
    );
  }
  const attachments = await storeAttachments(trx, company.id, draft.id, attachmentsOf(doc, bytes));
  return { invoice: draft, supplierCreated: created, attachments };
}
