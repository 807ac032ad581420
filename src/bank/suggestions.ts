// bank/transactions/suggest-matches: a handful of indexed look-ups find the candidates (numbers found in the
// remittance text or the creditor reference, the exact outstanding amount, the partners whose IBAN or name the
// counterparty has), each bounded, so the cost does not grow with the number of open documents; only the few
// candidates found are scored here. Indexes: migration 20261124000300 (*_open_number_idx, *_open_amount_idx,
// *_open_partner_idx, partner_bank_ibans_iban_idx, partners_iban_idx).
import type { components } from "../../generated/types.js";
import type { Db } from "../db/connection.js";
import { preparedQuery } from "../db/prepared.js";
import { Decimal, formatDecimal } from "../shared/decimal.js";
import { conflict } from "../shared/errors.js";
import { findTransaction } from "./transactions.js";

type Result = components["schemas"]["Bank.SuggestMatchesResult"];
type Candidate = components["schemas"]["Bank.MatchCandidate"];
type Reason = Candidate["reasons"][number];

const WEIGHTS: Record<Reason, number> = { creditor_reference: 0.7, invoice_number: 0.6, known_iban: 0.4, exact_amount: 0.35, name_similarity: 0.3 };
/** Candidates each look-up may bring. */
const PER_LOOKUP = 50;

const normalise = (s: string) => s.toUpperCase().replace(/[^A-Z0-9]/g, "");

/**
 * Words of the remittance text that could be document numbers: with a digit, normalised as the index is
 * (`SF-12` -> `SF12`), also each word joined to the next (`SF 12` -> `SF12`). At most 50.
 */
export function numberTokens(text: string | null): string[] {
  if (!text) return [];
  const words = text
    .split(/[\s,;:()&+]+/)
    .map(normalise)
    .filter(Boolean);
  const tokens = new Set<string>();
  words.forEach((w, i) => {
    if (/[0-9]/.test(w) && w.length <= 35) tokens.add(w);
    const joined = w + (words[i + 1] ?? "");
    if (i + 1 < words.length && /[0-9]/.test(joined) && joined.length <= 35) tokens.add(joined);
  });
  return [...tokens].slice(0, 50);
}

/** ISO 11649: `RF` + 2 check digits + the reference, valid when mod 97 of reference + `RF` + digits is 1. */
export function creditorReferenceNumber(reference: string | null): string | undefined {
  if (!reference) return undefined;
  const ref = normalise(reference);
  if (!ref.startsWith("RF")) return ref || undefined;
  const rearranged = ref.slice(4) + ref.slice(0, 4);
  let remainder = 0;
  for (const ch of rearranged) {
    const digits = /[0-9]/.test(ch) ? ch : String(ch.charCodeAt(0) - 55);
    for (const d of digits) remainder = (remainder * 10 + Number(d)) % 97;
  }
  return remainder === 1 && ref.length > 4 ? ref.slice(4) : undefined;
}

const LEGAL_FORMS = new Set(["UAB", "AB", "MB", "IĮ", "II", "VŠĮ", "VSI", "SIA", "AS", "OU", "OÜ", "LTD", "GMBH", "INC", "LLC", "SP", "ZOO"]);
const nameWords = (name: string) =>
  new Set(
    name
      .normalize("NFD")
      .replace(/[\u0300-\u036f]/g, "")
      .toUpperCase()
      .split(/[^A-Z0-9]+/)
      .filter((w) => w.length > 1 && !LEGAL_FORMS.has(w)),
  );

/** Jaccard similarity of the names' words (accents, case and legal forms ignored), 0 to 1. */
export function nameSimilarity(a: string | null, b: string | null): number {
  if (!a || !b) return 0;
  const x = nameWords(a);
  const y = nameWords(b);
  if (!x.size || !y.size) return 0;
  const common = [...x].filter((w) => y.has(w)).length;
  return common / (x.size + y.size - common);
}

/** The longest word of the counterparty's name, for the look-up of partners by name. */
const nameProbe = (name: string | null) => [...nameWords(name ?? "")].sort((a, b) => b.length - a.length)[0];

interface Source {
  table: "sale_invoices" | "purchase_invoices";
  numberColumn: "number" | "document_number";
  type: "invoice" | "credit_note";
  kind: Candidate["kind"];
}

/**
 * Money in settles sales invoices (and their debit notes) and purchase credit notes; money out purchase invoices (and
 * their debit notes) and sales credit notes.
 */
const sourcesFor = (incoming: boolean): Source[] =>
  incoming
    ? [
        { table: "sale_invoices", numberColumn: "number", type: "invoice", kind: "sale_invoice" },
        { table: "purchase_invoices", numberColumn: "document_number", type: "credit_note", kind: "purchase_credit_note" },
      ]
    : [
        { table: "purchase_invoices", numberColumn: "document_number", type: "invoice", kind: "purchase_invoice" },
        { table: "sale_invoices", numberColumn: "number", type: "credit_note", kind: "sale_credit_note" },
      ];

function candidatesSql(s: Source): string {
  const types = s.type === "invoice" ? "('invoice', 'debit_note')" : "('credit_note')";
  const open = `d.company_id = $1 and d.outstanding > 0 and d.type in ${types} and d.currency = $2`;
  const numberExpr = `upper(regexp_replace(d.${s.numberColumn}, '[^A-Za-z0-9]', '', 'g'))`;
  return `
    (select d.id from ${s.table} d where ${open} and ${numberExpr} = any($3::text[]) limit ${PER_LOOKUP})
    union
    (select d.id from ${s.table} d where ${open} and d.outstanding = $4::numeric limit ${PER_LOOKUP})
    union
    (select d.id from ${s.table} d join partners_known k on k.partner_code = d.partner_code where ${open} order by d.due_date limit ${PER_LOOKUP})
    union
    (select d.id from ${s.table} d join partners_named n on n.code = d.partner_code where ${open} order by d.due_date limit ${PER_LOOKUP})`;
}

/**
 * A document suggestSql finds, with its partner's name. `number` is a sales document's number or a purchase document's
 * own: an open document (outstanding above 0) is past its draft, so a sales one has its number.
 */
interface FoundRow {
  id: string;
  number: string;
  partner_code: string;
  partner_name: string;
  currency: string;
  outstanding: string;
  due_date: string;
  known_iban: boolean;
}

// Partners' names are compared without the Lithuanian accents (translate) and without case.
const PLAIN_NAME = `translate(upper(p0.name), 'ĄČĘĖĮŠŲŪŽ', 'ACEEISUUZ')`;

function suggestSql(s: Source): string {
  return `
    with partners_known as (
      select partner_code from partner_bank_ibans where company_id = $1 and iban = $5
      union select code from partners where company_id = $1 and iban = $5
    ),
    partners_named as (
      select p0.code from partners p0 where p0.company_id = $1 and $6::text is not null and ${PLAIN_NAME} like '%' || $6::text || '%' limit ${PER_LOOKUP}
    ),
    found as (${candidatesSql(s)})
    select d.id, d.${s.numberColumn} as number, d.partner_code, p.name as partner_name, d.currency, d.outstanding::text as outstanding,
           to_char(d.due_date, 'YYYY-MM-DD') as due_date, d.partner_code in (select partner_code from partners_known) as known_iban
      from found f
      join ${s.table} d on d.company_id = $1 and d.id = f.id
      join partners p on p.company_id = d.company_id and p.code = d.partner_code`;
}

export async function suggestMatches(db: Db, companyId: string, input: { transactionId: string; limit?: number }): Promise<Result> {
  const tx = await findTransaction(db, companyId, input.transactionId);
  // What a matched or ignored transaction could settle is no question: the answer would offer documents it cannot be
  // matched to until it is unmatched (and a matched one's own invoices are no longer open).
  if (tx.status === "matched") throw conflict("The transaction is matched already; unmatch it first.", "bank_transaction.already_matched", { id: tx.id });
  if (tx.status === "ignored") throw conflict("The transaction is ignored; unmatch it to make it unmatched first.", "bank_transaction.ignored", { id: tx.id });
  const amount = new Decimal(tx.amount);
  const reference = creditorReferenceNumber(tx.creditor_reference);
  const tokens = numberTokens(tx.remittance_information);
  const lookups = [...new Set([...tokens, ...(reference ? [reference] : [])])];
  const probe = nameProbe(tx.counterparty_name) ?? null;
  const rows = (
    await Promise.all(
      sourcesFor(amount.isPositive()).map(async (source) => {
        const found = await preparedQuery<FoundRow>(db, `bank_suggest_${source.kind}`, suggestSql(source), [
          companyId,
          tx.currency,
          lookups,
          amount.abs().toFixed(2),
          tx.counterparty_iban ?? "",
          probe,
        ]);
        return found.map((r) => ({ ...r, source }));
      }),
    )
  ).flat();

  const candidates = rows.map((r): Candidate & { weight: number } => {
    const number = normalise(r.number ?? "");
    const reasons: [Reason, number][] = [];
    if (reference && number === reference) reasons.push(["creditor_reference", WEIGHTS.creditor_reference]);
    if (tokens.includes(number)) reasons.push(["invoice_number", WEIGHTS.invoice_number]);
    if (r.known_iban) reasons.push(["known_iban", WEIGHTS.known_iban]);
    if (new Decimal(r.outstanding).equals(amount.abs())) reasons.push(["exact_amount", WEIGHTS.exact_amount]);
    const similarity = nameSimilarity(tx.counterparty_name, r.partner_name);
    if (similarity >= 0.5) reasons.push(["name_similarity", WEIGHTS.name_similarity * similarity]);
    reasons.sort((a, b) => b[1] - a[1]);
    const score = 1 - reasons.reduce((p, [, w]) => p * (1 - w), 1);
    return {
      kind: r.source.kind,
      saleInvoiceId: r.source.table === "sale_invoices" ? r.id : null,
      purchaseInvoiceId: r.source.table === "purchase_invoices" ? r.id : null,
      number: r.number,
      partnerCode: r.partner_code,
      partnerName: r.partner_name,
      currency: r.currency,
      outstanding: formatDecimal(r.outstanding, "money"),
      dueDate: r.due_date,
      score: Math.round(score * 10000) / 10000,
      reasons: reasons.map(([reason]) => reason),
      weight: score,
    };
  });
  candidates.sort((a, b) => b.weight - a.weight || (a.dueDate < b.dueDate ? -1 : a.dueDate > b.dueDate ? 1 : 0) || (a.number < b.number ? -1 : 1));
  return {
    transactionId: tx.id,
    candidates: candidates
      .filter((c) => c.reasons.length > 0)
      .slice(0, input.limit ?? 10)
      .map(({ weight: _weight, ...c }) => c),
  };
}
