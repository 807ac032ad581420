// Business rules of identifiers beyond the contract's patterns: a value of the right shape that breaks its rule
// is a 422 (the contract already answered 400 for the wrong shape). Each check returns a message or undefined.
import { ApiError, type FieldErrors } from "../errors.js";
import { isCountryCode } from "../reference/countries.js";

// VAT identification number formats after the two-letter prefix, as the EU's VIES documents them ("VIES VAT
// number validation", FAQ). Greece uses EL, Northern Ireland XI; Norway (EEA, outside VIES) appends MVA.
// A prefix not listed here is only held to the contract's pattern.
const VAT_FORMATS: Record<string, RegExp> = {
  AT: /^U[0-9]{8}$/,
  BE: /^[01][0-9]{9}$/,
  BG: /^[0-9]{9,10}$/,
  CY: /^[0-9]{8}[A-Z]$/,
  CZ: /^[0-9]{8,10}$/,
  DE: /^[0-9]{9}$/,
  DK: /^[0-9]{8}$/,
  EE: /^[0-9]{9}$/,
  EL: /^[0-9]{9}$/,
  ES: /^[0-9A-Z][0-9]{7}[0-9A-Z]$/,
  FI: /^[0-9]{8}$/,
  FR: /^[0-9A-HJ-NP-Z]{2}[0-9]{9}$/,
  HR: /^[0-9]{11}$/,
  HU: /^[0-9]{8}$/,
  IE: /^([0-9]{7}[A-W][A-IW]?|[0-9][A-Z+*][0-9]{5}[A-W])$/,
  IT: /^[0-9]{11}$/,
  LT: /^([0-9]{9}|[0-9]{12})$/,
  LU: /^[0-9]{8}$/,
  LV: /^[0-9]{11}$/,
  MT: /^[0-9]{8}$/,
  NL: /^[0-9]{9}B[0-9]{2}$/,
  PL: /^[0-9]{10}$/,
  PT: /^[0-9]{9}$/,
  RO: /^[1-9][0-9]{1,9}$/,
  SE: /^[0-9]{10}01$/,
  SI: /^[0-9]{8}$/,
  SK: /^[0-9]{10}$/,
  XI: /^([0-9]{9}|[0-9]{12}|GD[0-9]{3}|HA[0-9]{3})$/,
  NO: /^[0-9]{9}MVA$/,
};

export function vatCodeProblem(vatCode: string): string | undefined {
  const format = VAT_FORMATS[vatCode.slice(0, 2)];
  if (format && !format.test(vatCode.slice(2))) return `is not a valid ${vatCode.slice(0, 2)} VAT number format`;
  return undefined;
}

// IBAN lengths per country from the SWIFT IBAN registry (EU/EEA and neighbours); other countries are held to the
// contract's 15-34 characters and the checksum only.
const IBAN_LENGTHS: Record<string, number> = {
  AT: 20, BE: 16, BG: 22, CH: 21, CY: 28, CZ: 24, DE: 22, DK: 18, EE: 20, ES: 24, FI: 18, FR: 27, GB: 22, GR: 27,
  HR: 21, HU: 28, IE: 22, IS: 26, IT: 27, LI: 21, LT: 20, LU: 20, LV: 21, MC: 27, MT: 31, NL: 18, NO: 15, PL: 28,
  PT: 25, RO: 24, SE: 24, SI: 19, SK: 24, SM: 27,
};

/** ISO 13616: the IBAN, rearranged and with letters as 10..35, is 1 modulo 97. */
export function ibanChecksumValid(iban: string): boolean {
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  let remainder = 0;
  for (const ch of rearranged) {
    const digits = /[0-9]/.test(ch) ? ch : String(ch.charCodeAt(0) - 55);
    for (const d of digits) remainder = (remainder * 10 + Number(d)) % 97;
  }
  return remainder === 1;
}

export function ibanProblem(iban: string): string | undefined {
  const length = IBAN_LENGTHS[iban.slice(0, 2)];
  if (length !== undefined && iban.length !== length) return `must be ${length} characters long for ${iban.slice(0, 2)}`;
  if (!ibanChecksumValid(iban)) return "fails the IBAN check digits (ISO 13616 mod 97)";
  return undefined;
}

/** GS1 check digit: weights 3 and 1 alternating from the digit left of the check digit. */
export function gtinCheckDigitValid(digits: string): boolean {
  let sum = 0;
  for (let i = digits.length - 2, weight = 3; i >= 0; i--, weight = 4 - weight) sum += Number(digits[i]) * weight;
  return (10 - (sum % 10)) % 10 === Number(digits[digits.length - 1]);
}

/** An all-digit barcode of 8, 12 or 13 digits is an EAN-8, UPC-A or EAN-13 and must carry a right check digit. */
export function barcodeProblem(barcode: string): string | undefined {
  if (/^([0-9]{8}|[0-9]{12,13})$/.test(barcode) && !gtinCheckDigitValid(barcode)) {
    const kind = { 8: "EAN-8", 12: "UPC-A", 13: "EAN-13" }[barcode.length as 8 | 12 | 13];
    return `has a wrong ${kind} check digit`;
  }
  return undefined;
}

export const countryCodeProblem = (code: string) => (isCountryCode(code) ? undefined : "is not an assigned ISO 3166-1 alpha-2 code");

/**
 * Throws the 422 for rule failures: one failing field gives its own key (`keys[field]`), several give `severalKey`.
 * fieldErrors always names every failing field.
 */
export function throwRuleFailures(fieldErrors: FieldErrors, keys: Record<string, string>, severalKey: string): void {
  const fields = Object.keys(fieldErrors);
  if (fields.length === 0) return;
  const key = fields.length === 1 ? keys[fields[0]] : severalKey;
  const message = fields.map((f) => `${f} ${fieldErrors[f].join("; ")}`).join(". ") + ".";
  throw new ApiError("unprocessable", message, { key, params: { fields }, fieldErrors });
}
