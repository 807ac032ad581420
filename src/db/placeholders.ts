// What a statement that takes a number writes before the number exists: issuing a sales document
// (src/sales/numbering.ts) and posting a manual journal transaction (src/ledger/posting.ts, postLast). The series row
// is locked from the statement that takes the number to the commit, so everything else is prepared before that
// statement: the posting's description, reference and entry descriptions, the events' data, the audit record's
// summary, the response. Where the number belongs in them — and the journal transaction's id, number and creation
// time, which that statement creates too — they hold a placeholder instead: U+2063 (INVISIBLE SEPARATOR), a letter
// naming the value, and 24 random hex digits drawn for the request, so that it cannot occur by chance in anything a
// client wrote.
//
// The placeholders are filled in at three places, all defined here:
//   - in the numbering statement, in plain text (the posting's texts, which name the number only): `text`, `texts`;
//   - in the numbering statement, in JSON text (the events' data, the audit summary): `json`, where the number is
//     JSON-escaped, and the journal number — none when the company has no journal series — is a whole JSON string
//     that becomes the number's JSON string or null;
//   - in the response, once the statement has answered: `fillIn`.
import { randomBytes } from "node:crypto";
import type { SqlParams } from "./sql-params.js";

const MARK = "\u2063";

/** The placeholders of one request. */
export interface Placeholders {
  number: string;
  journalId: string;
  journalNumber: string;
  /** The journal transaction's creation time, which is the document's issue time too (both are the transaction's now()). */
  createdAt: string;
}

export function placeholders(): Placeholders {
  const tag = randomBytes(12).toString("hex");
  return { number: `${MARK}N${tag}`, journalId: `${MARK}J${tag}`, journalNumber: `${MARK}K${tag}`, createdAt: `${MARK}T${tag}` };
}

/** What the placeholders stand for, once the numbering statement has run. */
export interface Filled {
  number: string;
  journalId: string;
  journalNumber: string | null;
  /** ISO 8601 in UTC with milliseconds, as the API shows times. */
  createdAt: string;
}

/**
 * The SQL of filling the placeholders in, for one statement: `ph` bound as its parameters once. `filledCte` defines
 * `filled`, the values as the JSON text needs them, which `json` reads (its query must name `filled` in its FROM).
 */
export function placeholderSql(p: SqlParams, ph: Placeholders) {
  const number = p.text(ph.number);
  const journalId = p.text(ph.journalId);
  const journalNumber = p.text(ph.journalNumber);
  const createdAt = p.text(ph.createdAt);
  return {
    /** `sql` (text) with the number filled in; `taken` is the SQL of the number taken. */
    text: (sql: string, taken: string) => `replace(${sql}, ${number}, ${taken})`,
    /** The same for each element of `sql` (text[]), in order. */
    texts: (sql: string, taken: string) => `array(select replace(t.s, ${number}, ${taken}) from unnest(${sql}) with ordinality t(s, o) order by t.o)`,
    /** The CTE `filled` (one row) from the number taken and the journal transaction posted (`id`, `number`), read `from`. */
    filledCte: (taken: string, journal: { id: string; number: string }, from: string) => `filled as (
    select ${taken} as number, ${journal.id} as journal_id, ${journal.number} as journal_number,
           substr(to_json(${taken})::text, 2, length(to_json(${taken})::text) - 2) as number_json,
           coalesce(to_json(${journal.number})::text, 'null') as journal_number_json,
           to_char(now() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as created_at
      from ${from}
  )`,
    /** `sql` (JSON, as text or jsonb) with every placeholder filled in, as jsonb. */
    json: (sql: string) =>
      `replace(replace(replace(replace((${sql})::text, ${number}, filled.number_json), ${journalId}, filled.journal_id::text),
                       '"' || ${journalNumber} || '"', filled.journal_number_json), ${createdAt}, filled.created_at)::jsonb`,
  };
}

/** Fills the placeholders in every string of `value` (the response built before the number existed), in place. */
export function fillIn<T>(value: T, ph: Placeholders, filled: Filled): T {
  const fill = (s: string) =>
    s.includes(MARK)
      ? s
          .split(ph.number)
          .join(filled.number)
          .split(ph.journalId)
          .join(filled.journalId)
          .split(ph.createdAt)
          .join(filled.createdAt)
          .split(ph.journalNumber)
          .join(filled.journalNumber ?? "")
      : s;
  const walk = (v: unknown): unknown => {
    if (typeof v === "string") return fill(v);
    if (Array.isArray(v)) {
      v.forEach((x, i) => (v[i] = walk(x)));
      return v;
    }
    if (v && typeof v === "object") {
      const o = v as Record<string, unknown>;
      // The journal number as a whole value: the number, or null when the company has no journal series (as `json`).
      for (const k of Object.keys(o)) o[k] = o[k] === ph.journalNumber ? filled.journalNumber : walk(o[k]);
      return o;
    }
    return v;
  };
  return walk(value) as T;
}
