// The import's own checks of a supplier's e-invoice (issue 25): a subset of the CEN EN 16931 business rules (BR-…,
// BR-CO-…, the VAT category rules BR-<category>-08/09) and of the Peppol BIS Billing 3.0 rules (PEPPOL-EN16931-R…),
// written from their published text: the mandatory elements the import needs, and the sums. Tolerances are the rule
// sets' own (BR-CO-17 and BR-<category>-08 accept less than one unit of difference, PEPPOL-EN16931-R120 0.02; the
// other sums are exact). The official XSLT rule sets are the tests' oracle (test/support/peppol.ts), never run here.
import { Decimal } from "../shared/decimal.js";
import type { UblAmount, UblDocument, UblTaxCategory } from "./ubl-document.js";

export interface RuleFailure {
  rule: string;
  message: string;
}

const DECIMAL = /^[+-]?(\d{1,15})(\.\d{1,10})?$/;
const DATE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;
export const CATEGORIES = new Set(["S", "Z", "E", "AE", "K", "G", "O", "L", "M"]);
/** The rule group of each VAT category in EN 16931 (K is "intra-community", BR-IC-…; L IGIC BR-AF-…; M IPSI BR-AG-…). */
const RULE_GROUP: Record<string, string> = { K: "IC", L: "AF", M: "AG" };
const ruleOf = (category: string) => RULE_GROUP[category] ?? category;
/**
 * Our own id for what the UBL 2.1 XML schema checks and the rule sets leave to it (a date that is not an xs:date of
 * 2000-2100, the contract's years; a boolean that is not true or false).
 */
const SCHEMA = "UBL-SCHEMA";
const PROFILE = /^urn:fdc:peppol\.eu:2017:poacc:billing:\d{2}:1\.0$/;
const CUSTOMIZATION_PREFIX = "urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0";

export const dec = (value: string | undefined): Decimal | undefined => (value !== undefined && DECIMAL.test(value) ? new Decimal(value) : undefined);
/** A calendar date as UBL writes it (xs:date without a zone), a day that exists, in the contract's years 2000-2100. */
export const isDate = (value: string | undefined): boolean =>
  value !== undefined &&
  DATE.test(value) &&
  value >= "2000-01-01" &&
  value <= "2100-12-31" &&
  new Date(`${value}T00:00:00Z`).toISOString().slice(0, 10) === value;
const decimals = (value: string | undefined) => (value?.split(".")[1] ?? "").length;
const sum = (values: (Decimal | undefined)[]) => values.reduce<Decimal>((a, v) => a.plus(v ?? 0), new Decimal(0));
const rateKey = (c: UblTaxCategory | undefined) => `${c?.id ?? ""}|${dec(c?.percent)?.toFixed(4) ?? "-"}`;

/** Every rule of the subset the document fails, in the order of the rule sets. */
export function ublRuleFailures(doc: UblDocument): RuleFailure[] {
  const failures: RuleFailure[] = [];
  const fail = (rule: string, message: string) => failures.push({ rule, message });
  const need = (rule: string, value: string | undefined, what: string) => {
    if (value === undefined || value === "") fail(rule, `${what} is missing`);
  };
  const money = (rule: string, a: UblAmount, what: string, required = true, maxDecimals = 2) => {
    if (a.value === undefined) {
      if (required) fail(rule, `${what} is missing`);
      return undefined;
    }
    const value = dec(a.value);
    if (value === undefined) fail(rule, `${what} is not a decimal amount (${a.value.slice(0, 40)})`);
    else if (decimals(a.value) > maxDecimals) fail(rule, `${what} has more than ${maxDecimals} decimals (${a.value.slice(0, 40)})`);
    return value;
  };

  need("BR-01", doc.customizationId, "The specification identifier (cbc:CustomizationID, BT-24)");
  need("BR-02", doc.number, "The invoice number (cbc:ID, BT-1)");
  const issue = doc.issueDate;
  if (!issue) fail("BR-03", "The issue date (cbc:IssueDate, BT-2) is missing");
  else if (!isDate(issue)) fail(SCHEMA, `The issue date (cbc:IssueDate, BT-2) is not a date of 2000-2100 (${issue.slice(0, 40)})`);
  need("BR-04", doc.typeCode, "The invoice type code (BT-3)");
  need("BR-05", doc.currency, "The invoice currency code (cbc:DocumentCurrencyCode, BT-5)");
  need("BR-06", doc.supplier?.registrationName, "The seller's name (cac:PartyLegalEntity/cbc:RegistrationName, BT-27)");
  need("BR-07", doc.customer?.registrationName, "The buyer's name (cac:PartyLegalEntity/cbc:RegistrationName, BT-44)");
  if (!doc.supplier?.hasAddress) fail("BR-08", "The seller's postal address (BG-5) is missing");
  need("BR-09", doc.supplier?.address.countryCode, "The seller's country code (BT-40)");
  if (!doc.customer?.hasAddress) fail("BR-10", "The buyer's postal address (BG-8) is missing");
  need("BR-11", doc.customer?.address.countryCode, "The buyer's country code (BT-55)");
  const t = doc.totals;
  const lineTotal = money("BR-12", t.lineExtension, "The sum of invoice line net amounts (BT-106)");
  const taxExclusive = money("BR-13", t.taxExclusive, "The invoice total amount without VAT (BT-109)");
  const taxInclusive = money("BR-14", t.taxInclusive, "The invoice total amount with VAT (BT-112)");
  const payable = money("BR-15", t.payable, "The amount due for payment (BT-115)");
  if (doc.lines.length === 0) fail("BR-16", "The invoice has no line (BG-25)");
  if (doc.dueDate !== undefined && !isDate(doc.dueDate)) fail(SCHEMA, `The payment due date (BT-9) is not a date of 2000-2100 (${doc.dueDate.slice(0, 40)})`);
  if (doc.taxPointDate !== undefined && !isDate(doc.taxPointDate))
    fail(SCHEMA, `The VAT point date (BT-7) is not a date of 2000-2100 (${doc.taxPointDate.slice(0, 40)})`);

  doc.lines.forEach((l, i) => {
    const which = `Line ${l.id || i + 1}`;
    need("BR-21", l.id, `${which}: the line identifier (BT-126)`);
    if (dec(l.quantity) === undefined) fail("BR-22", `${which}: the invoiced quantity (BT-129) is ${l.quantity ? "not a number" : "missing"}`);
    need("BR-23", l.unitCode, `${which}: the unit of measure code (BT-130)`);
    money("BR-24", l.net, `${which}: the line net amount (BT-131)`);
    need("BR-25", l.name, `${which}: the item name (BT-153)`);
    // A price may have more decimals than an amount (BT-146 is a unit price amount, not limited to 2).
    const price = money("BR-26", l.price, `${which}: the item net price (BT-146)`, true, 10);
    if (price?.isNegative()) fail("BR-27", `${which}: the item net price (BT-146) is negative`);
    if (!l.category?.id) fail("BR-CO-04", `${which}: the invoiced item VAT category code (BT-151) is missing`);
    else if (!CATEGORIES.has(l.category.id)) fail("BR-CL-18", `${which}: the VAT category code ${l.category.id.slice(0, 10)} is not in UNCL 5305`);
    if (l.baseQuantity !== undefined && !(dec(l.baseQuantity)?.greaterThan(0) ?? false)) {
      fail("PEPPOL-EN16931-R121", `${which}: the base quantity (BT-149) is not a number above zero`);
    }
    const quantity = dec(l.quantity);
    const net = dec(l.net.value);
    const base = l.baseQuantity === undefined ? new Decimal(1) : dec(l.baseQuantity);
    if (quantity && net && price && base?.greaterThan(0)) {
      const charges = sum(l.allowanceCharges.filter((a) => a.charge).map((a) => dec(a.amount.value)));
      const allowances = sum(l.allowanceCharges.filter((a) => !a.charge).map((a) => dec(a.amount.value)));
      const expected = quantity.times(price.dividedBy(base)).plus(charges).minus(allowances);
      if (net.minus(expected).abs().greaterThan("0.02")) {
        fail("PEPPOL-EN16931-R120", `${which}: the line net amount ${l.net.value} is not quantity × price + charges − allowances (${expected.toFixed(2)})`);
      }
    }
  });
  doc.allowanceCharges.forEach((a, i) => {
    const which = `Document ${a.charge ? "charge" : "allowance"} ${i + 1}`;
    if (a.indicator !== "true" && a.indicator !== "false") fail(SCHEMA, `${which}: the charge indicator is not true or false`);
    money(a.charge ? "BR-36" : "BR-31", a.amount, `${which}: its amount (${a.charge ? "BT-99" : "BT-92"})`);
    if (!a.category?.id) fail(a.charge ? "BR-37" : "BR-32", `${which}: its VAT category code is missing`);
    if (!a.charge && !a.reason) fail("BR-33", `${which}: its reason is missing`);
    if (a.charge && !a.reason) fail("BR-38", `${which}: its reason is missing`);
  });

  const currency = doc.currency;
  if (currency) {
    const other = [...new Set(doc.amountCurrencies.filter((c) => c !== currency))];
    if (other.length) fail("PEPPOL-EN16931-R051", `Amounts are in ${other.join(", ").slice(0, 60)}, not the invoice currency ${currency}`);
  }
  if (doc.customizationId && !doc.customizationId.startsWith(CUSTOMIZATION_PREFIX)) {
    fail("PEPPOL-EN16931-R004", `The specification identifier is not Peppol BIS Billing 3.0 (${doc.customizationId.slice(0, 120)})`);
  }
  if (!doc.profileId) fail("PEPPOL-EN16931-R001", "The business process (cbc:ProfileID, BT-23) is missing");
  else if (!PROFILE.test(doc.profileId))
    fail("PEPPOL-EN16931-R007", `The business process is not of the form urn:fdc:peppol.eu:2017:poacc:billing:NN:1.0 (${doc.profileId.slice(0, 120)})`);
  if (!doc.supplier?.endpoint?.value) fail("PEPPOL-EN16931-R020", "The seller's electronic address (BT-34) is missing");
  if (!doc.customer?.endpoint?.value) fail("PEPPOL-EN16931-R010", "The buyer's electronic address (BT-49) is missing");

  // The sums.
  const lineNets = doc.lines.map((l) => dec(l.net.value));
  const allowances = doc.allowanceCharges.filter((a) => !a.charge);
  const charges = doc.allowanceCharges.filter((a) => a.charge);
  const allowanceSum = sum(allowances.map((a) => dec(a.amount.value)));
  const chargeSum = sum(charges.map((a) => dec(a.amount.value)));
  if (lineTotal && lineNets.every((n) => n !== undefined) && !sum(lineNets).equals(lineTotal)) {
    fail("BR-CO-10", `The sum of line net amounts (BT-106) ${t.lineExtension.value} is not the sum of the lines' net amounts (${sum(lineNets).toFixed(2)})`);
  }
  const allowanceTotal = money("BR-CO-11", t.allowanceTotal, "The sum of allowances (BT-107)", false);
  if (allowanceTotal ? !allowanceTotal.equals(allowanceSum) : !allowanceSum.isZero()) {
    fail("BR-CO-11", `The sum of allowances on document level (BT-107) is not the sum of the allowances (${allowanceSum.toFixed(2)})`);
  }
  const chargeTotal = money("BR-CO-12", t.chargeTotal, "The sum of charges (BT-108)", false);
  if (chargeTotal ? !chargeTotal.equals(chargeSum) : !chargeSum.isZero()) {
    fail("BR-CO-12", `The sum of charges on document level (BT-108) is not the sum of the charges (${chargeSum.toFixed(2)})`);
  }
  if (
    lineTotal &&
    taxExclusive &&
    !lineTotal
      .minus(allowanceTotal ?? 0)
      .plus(chargeTotal ?? 0)
      .equals(taxExclusive)
  ) {
    fail("BR-CO-13", `The total without VAT (BT-109) ${t.taxExclusive.value} is not the lines' sum − allowances + charges`);
  }
  const withSubtotals = doc.taxTotals.filter((x) => x.subtotals.length > 0);
  if (withSubtotals.length !== 1) fail("PEPPOL-EN16931-R053", `There are ${withSubtotals.length} tax totals with subtotals; exactly one is required`);
  const main = withSubtotals[0];
  const taxTotal = main ? money("BR-CO-14", main.tax, "The invoice total VAT amount (BT-110)") : undefined;
  if (!main || main.subtotals.length === 0) fail("BR-CO-18", "The invoice has no VAT breakdown (BG-23)");
  const subtotalTaxes = main?.subtotals.map((s) => dec(s.tax.value)) ?? [];
  if (taxTotal && subtotalTaxes.every((v) => v !== undefined) && !sum(subtotalTaxes).equals(taxTotal)) {
    fail("BR-CO-14", `The invoice total VAT amount (BT-110) ${main?.tax.value} is not the sum of the VAT category amounts (${sum(subtotalTaxes).toFixed(2)})`);
  }
  if (taxExclusive && taxInclusive && !taxExclusive.plus(taxTotal ?? 0).equals(taxInclusive)) {
    fail("BR-CO-15", `The total with VAT (BT-112) ${t.taxInclusive.value} is not the total without VAT + the total VAT`);
  }
  const prepaid = money("BR-CO-16", t.prepaid, "The paid amount (BT-113)", false);
  const rounding = money("BR-CO-16", t.rounding, "The rounding amount (BT-114)", false);
  if (
    taxInclusive &&
    payable &&
    !taxInclusive
      .minus(prepaid ?? 0)
      .plus(rounding ?? 0)
      .equals(payable)
  ) {
    fail("BR-CO-16", `The amount due (BT-115) ${t.payable.value} is not the total with VAT − paid + rounding`);
  }
  // Per VAT category and rate: the taxable amount is what the lines and document allowances and charges of that
  // category and rate add up to (BR-<category>-08), the VAT is taxable × rate (BR-CO-17), 0 outside S (BR-<c>-09).
  const seen = new Set<string>();
  main?.subtotals.forEach((s, i) => {
    const id = s.category?.id;
    const which = `VAT subtotal ${i + 1} (${id ?? "?"} ${s.category?.percent ?? ""})`.replace(" )", ")");
    const taxable = money("BR-45", s.taxable, `${which}: its taxable amount (BT-116)`);
    const tax = money("BR-46", s.tax, `${which}: its VAT amount (BT-117)`);
    if (!id) {
      fail("BR-47", `${which}: its VAT category code (BT-118) is missing`);
      return;
    }
    if (!CATEGORIES.has(id)) {
      fail("BR-CL-18", `${which}: the VAT category code ${id.slice(0, 10)} is not in UNCL 5305`);
      return;
    }
    const rate = dec(s.category?.percent);
    if (id !== "O" && rate === undefined) fail("BR-48", `${which}: its VAT rate (BT-119) is missing`);
    const key = rateKey(s.category);
    if (seen.has(key)) fail(`BR-${ruleOf(id)}-08`, `${which}: the category and rate occur in two subtotals`);
    seen.add(key);
    const ofKey = <T extends { category?: UblTaxCategory }>(list: T[]) => list.filter((x) => rateKey(x.category) === key);
    const expected = sum(ofKey(doc.lines).map((l) => dec(l.net.value)))
      .plus(sum(ofKey(charges).map((a) => dec(a.amount.value))))
      .minus(sum(ofKey(allowances).map((a) => dec(a.amount.value))));
    if (taxable?.minus(expected).abs().greaterThanOrEqualTo(1)) {
      fail(
        `BR-${ruleOf(id)}-08`,
        `${which}: the taxable amount ${s.taxable.value} is not what its lines, allowances and charges add up to (${expected.toFixed(2)})`,
      );
    }
    if (tax && taxable && rate) {
      const computed = taxable.abs().times(rate).dividedBy(100).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
      if (tax.abs().minus(computed).abs().greaterThanOrEqualTo(1)) {
        fail("BR-CO-17", `${which}: the VAT amount ${s.tax.value} is not the taxable amount × rate (${computed.toFixed(2)})`);
      }
    }
    if (id !== "S" && id !== "L" && id !== "M" && tax && !tax.isZero()) fail(`BR-${ruleOf(id)}-09`, `${which}: the VAT amount of category ${id} must be 0`);
  });
  // Every line's category and rate has its subtotal.
  for (const l of doc.lines) {
    const id = l.category?.id;
    if (id && CATEGORIES.has(id) && main && !seen.has(rateKey(l.category))) {
      // BR-<c>-01: a line of a category needs a subtotal of that category; BR-<c>-08: of its rate too.
      const ofCategory = main.subtotals.some((s) => s.category?.id === id);
      fail(
        `BR-${ruleOf(id)}-${ofCategory ? "08" : "01"}`,
        `Line ${l.id ?? "?"}: no VAT subtotal has its category ${id} and rate ${l.category?.percent ?? "(none)"}`,
      );
    }
  }
  return failures;
}
