// Business rules of identifiers beyond the contract's patterns: a value of the right shape that breaks its rule
// is a 422 (the contract already answered 400 for the wrong shape). Each check returns a message or undefined.
import { ApiError, type FieldErrors } from "./errors.js";
import { isCountryCode } from "./countries.js";

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
  const prefix = vatCode.slice(0, 2);
  // ISO 3166 says GR, but the EU VAT prefix of Greece is EL (VIES; Council Directive 2006/112/EC, Art. 215).
  if (prefix === "GR") return "has the prefix GR, which is not a VAT prefix: Greek VAT numbers start with EL";
  const format = VAT_FORMATS[prefix];
  if (format && !format.test(vatCode.slice(2))) return `is not a valid ${prefix} VAT number format`;
  if (prefix === "LT") return ltVatCodeProblem(vatCode.slice(2));
  return undefined;
}

// ---------------------------------------------------------------------------------------------------------------
// Lithuanian codes. One check-digit rule serves the personal code (asmens kodas), the legal entity code (juridinio
// asmens kodas) and the VAT code (PVM mokėtojo kodas): the weighted sum of the digits before the check digit, with
// weights 1, 2, …, 9, 1, 2, …, modulo 11; when that remainder is 10, a second sum with weights 3, 4, …, 9, 1, 2, …;
// a second remainder of 10 gives check digit 0.
// Sources: for personal codes the Lithuanian standard LST 1185 (G YYMMDD NNN C), as python-stdnum implements it
// (stdnum/lt/asmens.py); for VAT codes the European Commission's VIES algorithm specification ("VIES VAT number
// validation", LT: 9 digits for legal persons, 12 for temporarily registered taxpayers, the 8th resp. 11th digit
// always 1), as python-stdnum implements it (stdnum/lt/pvm.py, with its examples 119511515, 100001919017 and
// 100004801610); the 9-digit legal entity codes of the Register of Legal Entities (Registrų centras) carry the same
// check digit, which the published codes of e.g. Telia Lietuva (121215434), Maxima LT (123033512) and Lietuvos
// geležinkeliai (110053842) satisfy (test/unit/identifiers.test.ts).
// ---------------------------------------------------------------------------------------------------------------

/** The mod-11 check digit of a Lithuanian code, from the digits before it. */
export function ltCheckDigit(digits: string): number {
  const weighted = (offset: number) => [...digits].reduce((sum, d, i) => sum + (1 + ((i + offset) % 9)) * Number(d), 0) % 11;
  const first = weighted(0);
  if (first !== 10) return first;
  const second = weighted(2);
  return second === 10 ? 0 : second;
}

const ltCheckDigitValid = (code: string) => ltCheckDigit(code.slice(0, -1)) === Number(code[code.length - 1]);

/** The digits of an LT VAT code after the prefix (already 9 or 12 digits by format). */
function ltVatCodeProblem(digits: string): string | undefined {
  // Legal persons have 9 digits with a 1 in the 8th; temporarily registered taxpayers 12 digits with a 1 in the 11th.
  if (digits[digits.length - 2] !== "1") return `is not a valid LT VAT code: its ${digits.length === 9 ? "8th" : "11th"} digit must be 1`;
  if (!ltCheckDigitValid(digits)) return "fails the LT VAT code check digit (mod 11)";
  return undefined;
}

/** A Lithuanian legal entity code (juridinio asmens kodas): 9 digits, the last a mod-11 check digit. */
export function ltCompanyCodeProblem(code: string): string | undefined {
  if (!/^[0-9]{9}$/.test(code)) return "is not a Lithuanian legal entity code: it must be 9 digits";
  if (!ltCheckDigitValid(code)) return "fails the Lithuanian legal entity code check digit (mod 11)";
  return undefined;
}

/** A Lithuanian personal code (asmens kodas): 11 digits, G YYMMDD NNN C, the last a mod-11 check digit (LST 1185). */
export function ltPersonalCodeProblem(code: string): string | undefined {
  if (!/^[1-6][0-9]{10}$/.test(code)) return "is not a Lithuanian personal code: it must be 11 digits starting with 1 to 6";
  if (!ltCheckDigitValid(code)) return "fails the Lithuanian personal code check digit (mod 11)";
  return undefined;
}

/**
 * The registration code of a Lithuanian partner: a legal entity code, or for a natural person (`isPrivatePerson`) a
 * personal code when it is written as 11 digits (a person may also be registered by another code, e.g. an
 * individual activity certificate number, which is not checked).
 */
export function ltRegistrationCodeProblem(code: string, isPrivatePerson: boolean): string | undefined {
  if (!isPrivatePerson) return ltCompanyCodeProblem(code);
  return /^[0-9]{11}$/.test(code) ? ltPersonalCodeProblem(code) : undefined;
}

// IBAN lengths per country from the SWIFT IBAN registry (EU/EEA and neighbours); other countries are held to the
// contract's 15-34 characters and the checksum only.
const IBAN_LENGTHS: Record<string, number> = {
  AT: 20,
  BE: 16,
  BG: 22,
  CH: 21,
  CY: 28,
  CZ: 24,
  DE: 22,
  DK: 18,
  EE: 20,
  ES: 24,
  FI: 18,
  FR: 27,
  GB: 22,
  GR: 27,
  HR: 21,
  HU: 28,
  IE: 22,
  IS: 26,
  IT: 27,
  LI: 21,
  LT: 20,
  LU: 20,
  LV: 21,
  MC: 27,
  MT: 31,
  NL: 18,
  NO: 15,
  PL: 28,
  PT: 25,
  RO: 24,
  SE: 24,
  SI: 19,
  SK: 24,
  SM: 27,
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

/**
 * UPC-E (8 digits: number system 0 or 1, six digits, check digit) expanded to the UPC-A it stands for, whose check
 * digit it carries (GS1 General Specifications, section 2.1.3 "UPC-E"; e.g. 04252614 = UPC-A 042100005264).
 * Undefined when the digits cannot be a UPC-E.
 */
export function upcEToUpcA(upcE: string): string | undefined {
  if (!/^[01][0-9]{7}$/.test(upcE)) return undefined;
  const [ns, d1, d2, d3, d4, d5, d6, check] = upcE;
  const body =
    d6 <= "2"
      ? `${d1}${d2}${d6}0000${d3}${d4}${d5}`
      : d6 === "3"
        ? `${d1}${d2}${d3}00000${d4}${d5}`
        : d6 === "4"
          ? `${d1}${d2}${d3}${d4}00000${d5}`
          : `${d1}${d2}${d3}${d4}${d5}0000${d6}`;
  return `${ns}${body}${check}`;
}

/**
 * An all-digit barcode of 8, 12 or 13 digits is an EAN-8 (or a UPC-E), UPC-A or EAN-13 and must carry a right check
 * digit. Eight digits are accepted when they are a valid EAN-8 or a valid UPC-E.
 */
export function barcodeProblem(barcode: string): string | undefined {
  if (!/^([0-9]{8}|[0-9]{12,13})$/.test(barcode) || gtinCheckDigitValid(barcode)) return undefined;
  if (barcode.length === 8) {
    const upcA = upcEToUpcA(barcode);
    if (upcA && gtinCheckDigitValid(upcA)) return undefined;
    return "has a wrong check digit for both EAN-8 and UPC-E";
  }
  return `has a wrong ${barcode.length === 12 ? "UPC-A" : "EAN-13"} check digit`;
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
  const message = `${fields.map((f) => `${f} ${fieldErrors[f].join("; ")}`).join(". ")}.`;
  throw new ApiError("unprocessable", message, { key, params: { fields }, fieldErrors });
}

/**
 * Peppol's Electronic Address Scheme codes (the code list of PEPPOL-EN16931-UBL.sch 3.0.19, rule PEPPOL-EN16931-CL008):
 * the schemes a participant identifier (`scheme:id`) may be of.
 */
export const PEPPOL_EAS = new Set(
  (
    "0002 0007 0009 0037 0060 0088 0096 0097 0106 0130 0135 0142 0151 0177 0183 0184 0188 0190 0191 0192 0193 0195 0196 " +
    "0198 0199 0200 0201 0202 0204 0208 0209 0210 0211 0212 0213 0215 0216 0218 0221 0230 0235 9910 9913 9914 9915 9918 " +
    "9919 9920 9922 9923 9924 9925 9926 9927 9928 9929 9930 9931 9932 9933 9934 9935 9936 9937 9938 9939 9940 9941 9942 " +
    "9943 9944 9945 9946 9947 9948 9949 9950 9951 9952 9953 9957 9959 0147 0154 0158 0170 0194 0203 0205 0217 0225 0240"
  ).split(" "),
);

/** Why `scheme:id` is not a Peppol participant identifier the product can address, or undefined. */
export function peppolIdProblem(peppolId: string): string | undefined {
  const colon = peppolId.indexOf(":");
  const scheme = peppolId.slice(0, colon);
  if (colon !== 4 || !PEPPOL_EAS.has(scheme)) return `the scheme ${scheme || "(none)"} is not one of Peppol's EAS codes (e.g. 0200, 9937, 0088)`;
  if (scheme === "0200" && !/^[0-9]{9}$/.test(peppolId.slice(5))) return "a Lithuanian company code (scheme 0200) has 9 digits";
  return undefined;
}
