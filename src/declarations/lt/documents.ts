// The documents a Lithuanian VAT declaration reads, as one SQL text that i.SAF, FR0600 and FR0564 share (issue 24):
// every issued sales document and registered purchase document of a month, one row per (document, VAT classifier,
// rate), with its amounts in EUR:
//   taxable_eur   the taxable value
//   vat_eur       the VAT: a sale's output VAT; a purchase's VAT charged by the supplier, or calculated by the buyer
//                 on a reverse charge (0 on an import or exempt purchase)
//   ded_eur       (purchases) the part of vat_eur deducted as input VAT; nonded_eur the part that is not and is
//                 posted to purchases.vatNonDeductible (a fixed asset line's non-deductible share is the asset's
//                 cost: in neither)
// Amounts are as stored (not negative); `sign` says how they count (−1 for a credit note, 0 for a document whose
// posting is reversed: ./document-types.ts).
//
// The amounts are those stored when the document posted (vat_declared_rows; src/db/functions/vat_declared.ts says
// how they are computed, to the cent of what was posted, in EUR whatever the document's currency): a declaration
// reads them, it does not derive them again.
import { signSql, typesSql } from "./document-types.js";

/**
 * The date a purchase document is declared by (its i.SAF RegistrationAccountDate and FR0600 month): its accounting
 * date (issue 24 item 5: the document date unless the purchase was accounted for later; index
 * purchase_invoices_declared_idx, migration 20261127003100).
 */
export const purchaseDeclarationDate = (alias: string) => `${alias}.accounting_date`;

/** The accounts of the VAT posting rules, read from the company's posting_rules (src/ledger's rules). */
export interface VatAccounts {
  vatPayable: string;
  vatReceivable: string;
  vatNonDeductible: string;
  reverseChargeVatInput: string;
  reverseChargeVatOutput: string;
}

export interface DocumentQuery {
  companyId: string;
  from: string;
  to: string;
  accounts: VatAccounts;
  /** Only one side (i.SAF reads its sections one at a time). */
  side?: "sale" | "purchase";
  /** Keyset paging (i.SAF): documents after this (date, id), at most `limit`. */
  after?: { date: string; id: string };
  limit?: number;
  /** Without the partners' snapshots (partner_snapshot null): a return that sums amounts reads less. */
  lean?: boolean;
}

/** One (document, classifier, rate) row. Dates are `YYYY-MM-DD`; amounts decimal strings. */
export interface DocumentGroupRow {
  side: "sale" | "purchase";
  id: string;
  type: string;
  status: string;
  doc_no: string;
  invoice_date: string;
  decl_date: string;
  supply_date: string | null;
  partner_code: string;
  partner_snapshot: Record<string, unknown>;
  partner_country: string | null;
  credited_no: string | null;
  credited_date: string | null;
  treatment: string;
  journal_transaction_id: string | null;
  sign: number;
  /** A sale in triangular trade (FR0564's triangular column); false for purchases. */
  triangular: boolean;
  ord: string;
  classifier: string;
  rate_pct: string;
  taxable_eur: string;
  vat_eur: string;
  ded_eur: string | null;
  nonded_eur: string | null;
}

/** The columns of a document (CTE docs, alias d) every (document, classifier, rate) row carries. */
const DOC_COLUMNS = [
  "side",
  "id",
  "type",
  "status",
  "doc_no",
  "invoice_date",
  "decl_date",
  "supply_date",
  "partner_code",
  "partner_snapshot",
  "credited_invoice_id",
  "treatment",
  "journal_transaction_id",
  "sign",
  "triangular",
]
  .map((c) => `d.${c}`)
  .join(", ");

/** The documents of one side as a query of `docs`' columns. */
function sideSql(side: "sale" | "purchase", q: DocumentQuery, keysetParam: number): string {
  const keyset = q.after ? `and (decl_date, id) > ($${keysetParam}::date, $${keysetParam + 1}::uuid)` : "";
  const limit = q.limit ? `order by decl_date, id limit ${Math.trunc(q.limit)}` : "";
  if (side === "sale") {
    return `select * from (
      select 'sale'::text as side, s.id, s.type, s.status, s.number as doc_no, s.issue_date as invoice_date, s.issue_date as decl_date,
             s.supply_date, s.partner_code, ${q.lean ? "null::jsonb" : "s.partner_snapshot"} as partner_snapshot, s.credited_invoice_id, s.rate, s.gross_total_base as base_total,
             s.journal_transaction_id, s.vat_breakdown, 'standard'::text as treatment, ${signSql("sale", "s.type", "s.status")} as sign,
             s.annulment_transaction_id as annulment_tx, s.triangular, null::numeric as customs_vat
        from sale_invoices s
       where s.company_id = $1 and s.status <> 'draft' and not s.migrated and s.type in (${typesSql("sale")})
         and s.issue_date between $2::date and $3::date) x
     where true ${keyset} ${limit}`;
  }
  const date = purchaseDeclarationDate("p");
  return `select * from (
      select 'purchase'::text as side, p.id, p.type, p.status, p.document_number as doc_no, p.document_date as invoice_date, ${date} as decl_date,
             p.supply_date, p.partner_code, ${q.lean ? "null::jsonb" : "p.partner_snapshot"} as partner_snapshot, p.credited_invoice_id, p.rate, p.gross_total_base as base_total,
             p.journal_transaction_id, p.vat_breakdown, p.vat_treatment as treatment, ${signSql("purchase", "p.type", "p.status")} as sign,
             null::uuid as annulment_tx, false as triangular, p.customs_vat
        from purchase_invoices p
       where p.company_id = $1 and p.status <> 'draft' and not p.migrated and p.type in (${typesSql("purchase")})
         and ${date} between $2::date and $3::date) x
     where true ${keyset} ${limit}`;
}

function docsCte(q: DocumentQuery): { docs: string; values: unknown[] } {
  const a = q.accounts;
  const values: unknown[] = [q.companyId, q.from, q.to, a.vatPayable, a.vatReceivable, a.vatNonDeductible, a.reverseChargeVatInput, a.reverseChargeVatOutput];
  if (q.after) values.push(q.after.date, q.after.id);
  const sides = q.side ? [q.side] : (["sale", "purchase"] as const);
  return { docs: sides.map((s) => `(${sideSql(s, q, 9)})`).join(" union all "), values };
}

/**
 * The documents of the month (one row each, no amounts), for queries that need no EUR amounts: `select` reads CTE
 * `docs` (columns of sideSql: side, id, type, status, doc_no, invoice_date, decl_date, supply_date, partner_code,
 * partner_snapshot, credited_invoice_id, rate, base_total, journal_transaction_id, vat_breakdown, treatment, sign,
 * annulment_tx, triangular, customs_vat).
 * Parameters $4..$8 are the VAT accounts (unused here, typed so that the numbering stays the same).
 */
export function documentHeadersSql(q: DocumentQuery, select: string): { text: string; values: unknown[] } {
  const { docs, values } = docsCte(q);
  // Not materialized: a count or a keyset position reads the index alone, and only the columns a query names are read.
  return { text: `with unused_accounts as (select $4::text, $5::text, $6::text, $7::text, $8::text), docs as not materialized (${docs}) ${select}`, values };
}

/**
 * The SQL and parameters of the (document, classifier, rate) rows of a month, in EUR. `select` is the query over
 * CTE `rows` (DocumentGroupRow's columns); the default lists them in document order.
 */
export function documentGroupsSql(q: DocumentQuery, select = "select * from rows order by side desc, decl_date, id, ord"): { text: string; values: unknown[] } {
  const { docs, values } = docsCte(q);
  const text = `
  with unused_accounts as (select $4::text, $5::text, $6::text, $7::text, $8::text),
  docs as materialized (${docs}),
  -- Each document's (classifier, rate) rows as stored when it posted (ord 0, an import's customs VAT, is not one).
  drows as (
    select ${DOC_COLUMNS}, v.ord, v.classifier, v.rate_pct, v.base as taxable_eur, v.vat as vat_eur, v.ded as ded_eur, v.nonded as nonded_eur
      from docs d join vat_declared_rows v on v.company_id = $1 and v.document_id = d.id and v.ord > 0
  ),
  rows as not materialized (
    select d.side, d.id, d.type, d.status, d.doc_no, d.invoice_date::text as invoice_date, d.decl_date::text as decl_date,
           d.supply_date::text as supply_date, d.partner_code, d.partner_snapshot, pa.country_code as partner_country,
           case d.side when 'sale' then cs.number else cp.document_number end as credited_no,
           (case d.side when 'sale' then cs.issue_date else cp.document_date end)::text as credited_date,
           d.treatment, d.journal_transaction_id, d.sign, d.triangular, d.ord::text as ord, d.classifier, d.rate_pct::text as rate_pct,
           d.taxable_eur::numeric(17,2)::text as taxable_eur, d.vat_eur::numeric(17,2)::text as vat_eur,
           d.ded_eur::numeric(17,2)::text as ded_eur, d.nonded_eur::numeric(17,2)::text as nonded_eur
      from drows d
      left join partners pa on pa.company_id = $1 and pa.code = d.partner_code
      -- By index, for the few documents that correct another (a hash join would read every document of the company).
      left join lateral (select number, issue_date from sale_invoices cs
                          where d.side = 'sale' and d.credited_invoice_id is not null and cs.company_id = $1 and cs.id = d.credited_invoice_id limit 1) cs on true
      left join lateral (select document_number, document_date from purchase_invoices cp
                          where d.side = 'purchase' and d.credited_invoice_id is not null and cp.company_id = $1 and cp.id = d.credited_invoice_id limit 1) cp on true
  )
  ${select}`;
  return { text, values };
}
