// An invoice's total in words ("Suma žodžiais"), as Lithuanian buyers and auditors expect it on a document, and in
// English on English documents (issue 25). Every `Money` the contract allows (up to 15 integer digits: 999 trillion)
// has its words; the cents stay digits ("66 ct"), as Lithuanian documents write them.
//
// Lithuanian: cardinal numbers in the masculine (euras, tūkstantis, milijonas are masculine: "vienas", "du", not
// "viena", "dvi"); each scale word and the currency take the case the number before it asks for:
// - nominative singular after a number ending in 1, except 11 (vienas euras, dvidešimt vienas tūkstantis);
// - nominative plural after one ending in 2–9, except 12–19 (du eurai, trys tūkstančiai);
// - genitive plural after 0, 10 and 11–19 at the end (dešimt eurų, vienuolika tūkstančių, šimtas eurų).
// "Vienas" before a scale word is written ("vienas tūkstantis", "vienas milijonas"), and "šimtas" (not "vienas
// šimtas") for 100. Source: Valstybinė lietuvių kalbos komisija, Lietuvių kalbos patarimai (skaitvardžių derinimas
// su daiktavardžiais), and the common form of Lithuanian invoices ("Vienas tūkstantis šeši šimtai šešiasdešimt šeši
// eurai 66 ct").
import { Decimal } from "../shared/decimal.js";

export type WordsLanguage = "lt" | "en";

const LT_ONES = ["", "vienas", "du", "trys", "keturi", "penki", "šeši", "septyni", "aštuoni", "devyni"];
const LT_TEENS = ["dešimt", "vienuolika", "dvylika", "trylika", "keturiolika", "penkiolika", "šešiolika", "septyniolika", "aštuoniolika", "devyniolika"];
const LT_TENS = ["", "", "dvidešimt", "trisdešimt", "keturiasdešimt", "penkiasdešimt", "šešiasdešimt", "septyniasdešimt", "aštuoniasdešimt", "devyniasdešimt"];

/** A noun's three forms: nominative singular, nominative plural, genitive plural. */
type Forms = readonly [string, string, string];
const LT_SCALES: Forms[] = [
  ["tūkstantis", "tūkstančiai", "tūkstančių"],
  ["milijonas", "milijonai", "milijonų"],
  ["milijardas", "milijardai", "milijardų"],
  ["trilijonas", "trilijonai", "trilijonų"],
];
const LT_CURRENCIES: Record<string, Forms> = {
  EUR: ["euras", "eurai", "eurų"],
  USD: ["JAV doleris", "JAV doleriai", "JAV dolerių"],
  GBP: ["svaras sterlingų", "svarai sterlingų", "svarų sterlingų"],
};

/** The form a count asks for (see the header). */
function ltForm(count: number, forms: Forms): string {
  const lastTwo = count % 100;
  const last = count % 10;
  if (last === 0 || (lastTwo >= 10 && lastTwo <= 19)) return forms[2];
  return last === 1 ? forms[0] : forms[1];
}

/** 1–999 in words (Lithuanian). */
function ltHundreds(n: number): string[] {
  const words: string[] = [];
  const hundreds = Math.floor(n / 100);
  const rest = n % 100;
  if (hundreds === 1) words.push("šimtas");
  else if (hundreds > 1) words.push(LT_ONES[hundreds], "šimtai");
  if (rest >= 10 && rest <= 19) words.push(LT_TEENS[rest - 10]);
  else {
    if (rest >= 20) words.push(LT_TENS[Math.floor(rest / 10)]);
    if (rest % 10) words.push(LT_ONES[rest % 10]);
  }
  return words;
}

const EN_ONES = ["", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"];
const EN_TEENS = ["ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"];
const EN_TENS = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"];
const EN_SCALES = ["thousand", "million", "billion", "trillion"];
const EN_CURRENCIES: Record<string, readonly [string, string]> = {
  EUR: ["euro", "euros"],
  USD: ["US dollar", "US dollars"],
  GBP: ["pound sterling", "pounds sterling"],
};

/** 1–999 in words (English, without "and": "six hundred sixty-six"). */
function enHundreds(n: number): string[] {
  const words: string[] = [];
  const hundreds = Math.floor(n / 100);
  const rest = n % 100;
  if (hundreds) words.push(EN_ONES[hundreds], "hundred");
  if (rest >= 10 && rest <= 19) words.push(EN_TEENS[rest - 10]);
  else if (rest >= 20) words.push(rest % 10 ? `${EN_TENS[Math.floor(rest / 10)]}-${EN_ONES[rest % 10]}` : EN_TENS[Math.floor(rest / 10)]);
  else if (rest) words.push(EN_ONES[rest]);
  return words;
}

/** Groups of three digits, most significant first: "1001000" → [1, 1, 0]. */
function groups(whole: string): number[] {
  const padded = whole.padStart(Math.ceil(whole.length / 3) * 3, "0");
  return padded.match(/.{3}/g)!.map(Number);
}

/** The whole part in words, and the count the currency agrees with (its last group, or 0 when that group is 0). */
function wholeInWords(whole: string, language: WordsLanguage): string[] {
  const parts = groups(whole);
  if (parts.every((g) => g === 0)) return [language === "lt" ? "nulis" : "zero"];
  const words: string[] = [];
  parts.forEach((g, i) => {
    if (g === 0) return;
    const scale = parts.length - 1 - i; // 0: units, 1: thousands, …
    if (language === "lt") {
      words.push(...ltHundreds(g));
      if (scale > 0) words.push(ltForm(g, LT_SCALES[scale - 1]));
    } else {
      words.push(...enHundreds(g));
      if (scale > 0) words.push(EN_SCALES[scale - 1]);
    }
  });
  return words;
}

/**
 * `amount` (a decimal string of at most 15 integer digits and 2 decimals, signed) in words with its currency and
 * cents in digits: ("1666.66", "EUR", "lt") → "Vienas tūkstantis šeši šimtai šešiasdešimt šeši eurai 66 ct";
 * ("1666.66", "EUR", "en") → "One thousand six hundred sixty-six euros 66 ct". A currency without names of its own
 * is written by its code ("… 66/100 SEK"). A negative amount (a credit note) starts with "minus".
 */
export function amountInWords(amount: string, currency: string, language: WordsLanguage): string {
  const value = new Decimal(amount);
  const fixed = value.abs().toFixed(2, Decimal.ROUND_HALF_UP);
  const [whole, cents] = fixed.split(".");
  if (whole.length > 15) throw new RangeError(`amountInWords: ${amount} has more than 15 integer digits`);
  const words = wholeInWords(whole, language);
  const lastGroup = Number(whole.slice(-3));
  const count = Number(whole) === 0 ? 0 : lastGroup;
  let tail: string;
  if (language === "lt") {
    const forms = LT_CURRENCIES[currency];
    // "Nulis eurų": after zero the genitive plural, as after 0 at the end of any number.
    tail = forms ? `${ltForm(count, forms)} ${cents} ct` : `${currency} ${cents}/100`;
  } else {
    const names = EN_CURRENCIES[currency];
    tail = names ? `${Number(whole) === 1 ? names[0] : names[1]} ${cents} ct` : `${currency} ${cents}/100`;
  }
  const sign = value.isNegative() && !value.isZero() ? ["minus"] : [];
  const text = [...sign, ...words, tail].join(" ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}
