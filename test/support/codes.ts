// Lithuanian legal entity codes for fixtures: 9 digits whose last is the mod-11 check digit, so a Lithuanian test
// company passes the company-code rule. Distinct within the test process (codes are unique per account).
import { ltCheckDigit } from "../../src/shared/identifiers.js";

let next = 1_000_000 + Math.floor(Math.random() * 8_000_000);

/** A valid, fresh 9-digit Lithuanian legal entity code (starting with 30, as codes issued since 2004 do). */
export function ltCompanyCode(): string {
  const body = `3${String(++next).padStart(7, "0")}`;
  return `${body}${ltCheckDigit(body)}`;
}
