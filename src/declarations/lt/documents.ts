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
// EUR, to the cent of what was posted. A document in EUR is its stored breakdown (vat_breakdown, and for a purchase
// with non-deductible lines the VAT of each rate shared between its lines by net, largest remainder, as posting
// shares it: src/purchases/invoices.ts purchaseParts). A document in another currency was posted with convertParts
// (src/invoicing/totals.ts), whose cents depend on every part of the posting; so its EUR totals are read from its
// own journal transaction — the VAT on the accounts of the VAT posting rules, the rest of the receivable or payable
// (gross_total_base) the taxable value — and shared between its (classifier, rate) groups in proportion to their
// amounts in its currency (largest remainder; a group is within a cent of its own conversion). Were a rule's account
// changed after posting, the VAT falls back to the document's VAT converted and rounded, and the reconciliation of
// FR0600 shows the difference.
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

/**
 * Shares each (id, grp) target `t` between its rows by weight `w`, to the cent, as src/shared/weights.ts
 * splitByWeights does: each share its exact value rounded down, the cents left over to the largest remainders (ties
 * by `ord`); all weights zero: everything to the first row. Reads CTE `${input}` (id, grp, ord, w, t); defines
 * `${name}` (id, grp, ord, share).
 */
function allocateSql(input: string, name: string): string {
  return `
  ${name}_a as (
    select id, grp, ord, w, t, sum(w) over p as sw, min(ord) over p as first_ord
      from ${input} window p as (partition by id, grp)
  ),
  ${name}_b as (
    select id, grp, ord, t,
           case when sw = 0 then (case when ord = first_ord then t else 0 end) else t * w / sw end as exact
      from ${name}_a
  ),
  ${name}_c as (
    select id, grp, ord, t, exact, floor(exact * 100) / 100 as fl from ${name}_b
  ),
  ${name}_d as (
    select id, grp, ord, exact, fl, round((t - sum(fl) over (partition by id, grp)) * 100) as left_cents,
           row_number() over (partition by id, grp order by exact - fl desc, ord) as rk
      from ${name}_c
  ),
  ${name} as (
    select id, grp, ord, fl + case when rk <= left_cents then 0.01 else 0 end as share from ${name}_d
  )`;
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
function sideSql(side: "sale" | "purchase", q: DocumentQuery, keysetParam: number, headers: boolean): string {
  const keyset = q.after ? `and (decl_date, id) > ($${keysetParam}::date, $${keysetParam + 1}::uuid)` : "";
  const limit = q.limit ? `order by decl_date, id limit ${Math.trunc(q.limit)}` : "";
  if (side === "sale") {
    return `select * from (
      select 'sale'::text as side, s.id, s.type, s.status, s.number as doc_no, s.issue_date as invoice_date, s.issue_date as decl_date,
             s.supply_date, s.partner_code, ${q.lean ? "null::jsonb" : "s.partner_snapshot"} as partner_snapshot, s.credited_invoice_id, s.rate, s.gross_total_base as base_total,
             s.journal_transaction_id, s.vat_breakdown, 'standard'::text as treatment, ${signSql("sale", "s.type", "s.status")} as sign,
             coalesce(s.rate, 1) <> 1 as special, s.annulment_transaction_id as annulment_tx, s.triangular, null::numeric as customs_vat
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
             ${
               headers
                 ? "null::boolean"
                 : `coalesce(p.rate, 1) <> 1 or (p.vat_treatment in ('standard', 'reverse_charge') and exists (
               select 1 from purchase_invoice_lines l where l.company_id = p.company_id and l.invoice_id = p.id and not l.vat_deductible))`
             } as special,
             null::uuid as annulment_tx, false as triangular, p.customs_vat
        from purchase_invoices p
       where p.company_id = $1 and p.status <> 'draft' and not p.migrated and p.type in (${typesSql("purchase")})
         and ${date} between $2::date and $3::date) x
     where true ${keyset} ${limit}`;
}

function docsCte(q: DocumentQuery, headers = false): { docs: string; values: unknown[] } {
  const a = q.accounts;
  const values: unknown[] = [q.companyId, q.from, q.to, a.vatPayable, a.vatReceivable, a.vatNonDeductible, a.reverseChargeVatInput, a.reverseChargeVatOutput];
  if (q.after) values.push(q.after.date, q.after.id);
  const sides = q.side ? [q.side] : (["sale", "purchase"] as const);
  return { docs: sides.map((s) => `(${sideSql(s, q, 9, headers)})`).join(" union all "), values };
}

/**
 * The documents of the month (one row each, no amounts), for queries that need no EUR amounts: `select` reads CTE
 * `docs` (columns of sideSql: side, id, type, status, doc_no, invoice_date, decl_date, supply_date, partner_code,
 * partner_snapshot, credited_invoice_id, rate, base_total, journal_transaction_id, vat_breakdown, treatment, sign; special
 * is null: whether a document needs the shares is not read here).
 * Parameters $4..$8 are the VAT accounts (unused here, typed so that the numbering stays the same).
 */
export function documentHeadersSql(q: DocumentQuery, select: string): { text: string; values: unknown[] } {
  const { docs, values } = docsCte(q, true);
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
  with docs as materialized (${docs}),
  -- A plain document (in EUR; a purchase without non-deductible lines) is its stored breakdown: its VAT is deducted
  -- in full (a standard or reverse-charge purchase) or not at all (import, exempt).
  plain as (
    select ${DOC_COLUMNS}, g.ord, g.v ->> 'vatClassifier' as classifier, (g.v ->> 'vatRatePercent')::numeric as rate_pct,
           (g.v ->> 'taxableAmount')::numeric as taxable_eur, (g.v ->> 'vatAmount')::numeric as vat_eur,
           case when d.side = 'sale' then null when d.treatment in ('standard', 'reverse_charge') then (g.v ->> 'vatAmount')::numeric else 0 end as ded_eur,
           case when d.side = 'sale' then null else 0 end as nonded_eur
      from docs d cross join lateral jsonb_array_elements(d.vat_breakdown) with ordinality g(v, ord)
     where not d.special
  ),
  -- The rest (another currency, non-deductible lines) through the shares below.
  sdocs as (select * from docs where special),
  groups as (
    select d.side, d.id, g.ord, g.v ->> 'vatClassifier' as classifier, (g.v ->> 'vatRatePercent')::numeric as rate_pct,
           (g.v ->> 'taxableAmount')::numeric as taxable, (g.v ->> 'vatAmount')::numeric as vat
      from sdocs d cross join lateral jsonb_array_elements(d.vat_breakdown) with ordinality g(v, ord)
  ),
  -- Purchases with a non-deductible line: each rate's VAT shared between its lines by net, as posting shares it. A
  -- non-deductible line on an asset account (a fixed asset's cost; not received into stock) capitalises its share:
  -- it is posted to that account, not to purchases.vatNonDeductible (src/purchases/invoices.ts purchaseParts).
  plines as (
    select d.id, l.line_no, l.vat_classifier as classifier, l.vat_rate_percent as rate_pct, l.net_amount, l.vat_deductible,
           (not l.vat_deductible and l.warehouse_code is null and la.code is not null) as capitalised,
           bool_or(not l.vat_deductible) over (partition by d.id) as mixed
      from sdocs d join purchase_invoice_lines l on l.company_id = $1 and l.invoice_id = d.id
      left join ledger_accounts la on la.company_id = $1 and la.code = l.expense_account_code and la.type = 'asset'
        and la.code is distinct from (select pr.account_code from posting_rules pr where pr.company_id = $1 and pr.rule = 'inventory.stock')
     where d.side = 'purchase' and d.treatment in ('standard', 'reverse_charge')
  ),
  line_input as (
    select l.id, l.rate_pct::text as grp, l.line_no as ord, l.net_amount as w, r.vat as t
      from plines l
      join (select id, rate_pct, sum(vat) as vat from groups where side = 'purchase' group by id, rate_pct) r on r.id = l.id and r.rate_pct = l.rate_pct
     where l.mixed
  ),
  ${allocateSql("line_input", "line_shares")},
  split as (
    select s.id, l.classifier, l.rate_pct,
           coalesce(sum(s.share) filter (where l.vat_deductible), 0) as ded,
           coalesce(sum(s.share) filter (where not l.vat_deductible and not l.capitalised), 0) as nonded,
           coalesce(sum(s.share) filter (where l.capitalised), 0) as cap
      from line_shares s join plines l on l.id = s.id and l.line_no = s.ord
     group by s.id, l.classifier, l.rate_pct
  ),
  -- Amounts of each group in the document's currency.
  gdoc as (
    select g.side, g.id, g.ord, g.classifier, g.rate_pct, g.taxable, g.vat,
           case when g.side = 'sale' then null
                when d.treatment not in ('standard', 'reverse_charge') then 0
                else coalesce(s.ded, case when l.id is null then g.vat else 0 end) end as ded,
           case when g.side = 'sale' then null
                when d.treatment not in ('standard', 'reverse_charge') then 0
                else coalesce(s.nonded, 0) end as nonded,
           coalesce(s.cap, 0) as cap
      from groups g join sdocs d on d.side = g.side and d.id = g.id
      left join split s on s.id = g.id and s.classifier = g.classifier and s.rate_pct = g.rate_pct
      left join (select distinct id from plines where mixed) l on l.id = g.id
  ),
  -- A document in another currency: its EUR totals as posted (its journal transaction), the taxable value the rest.
  fx as (
    select d.side, d.id, d.treatment, d.rate, d.base_total, t.vat, t.ded, t.nonded,
           case when t.vat = 0 then 0 when d.side = 'sale' then coalesce(j.vat_payable, round(t.vat / d.rate, 2))
                when d.treatment = 'reverse_charge' then coalesce(j.reverse_output, round(t.vat / d.rate, 2))
                when d.treatment = 'standard' then (case when t.cap = 0 then null else round(t.vat / d.rate, 2) end) else 0 end as t_vat,
           case when t.ded = 0 or d.side = 'sale' then 0
                else coalesce(case when d.treatment = 'reverse_charge' then j.reverse_input else j.vat_receivable end, round(t.ded / d.rate, 2)) end as t_ded,
           case when t.nonded = 0 or d.side = 'sale' then 0 else coalesce(j.nonded, round(t.nonded / d.rate, 2)) end as t_nonded
      from sdocs d
      join (select id, sum(vat) as vat, coalesce(sum(ded), 0) as ded, coalesce(sum(nonded), 0) as nonded, sum(cap) as cap from gdoc group by id) t on t.id = d.id
      left join lateral (
        select abs(sum(e.credit - e.debit) filter (where e.account_code = $4)) as vat_payable,
               abs(sum(e.debit - e.credit) filter (where e.account_code = $5)) as vat_receivable,
               abs(sum(e.debit - e.credit) filter (where e.account_code = $6)) as nonded,
               abs(sum(e.debit - e.credit) filter (where e.account_code = $7)) as reverse_input,
               abs(sum(e.credit - e.debit) filter (where e.account_code = $8)) as reverse_output
          from journal_entries e
         where e.company_id = $1 and e.transaction_id = d.journal_transaction_id
      ) j on true
     where d.rate <> 1
  ),
  fx_targets as (
    select side, id, treatment, base_total, coalesce(t_vat, t_ded + t_nonded) as t_vat, t_ded, t_nonded from fx
  ),
  fx_input as (
    select g.id, k.kind as grp, g.ord,
           case k.kind when 'taxable' then g.taxable when 'vat' then g.vat when 'ded' then g.ded else g.nonded end as w,
           case k.kind when 'taxable' then f.base_total - case when f.side = 'sale' or f.treatment = 'standard' then f.t_vat else 0 end
                       when 'vat' then f.t_vat when 'ded' then f.t_ded else f.t_nonded end as t
      from gdoc g join fx_targets f on f.side = g.side and f.id = g.id
      cross join (values ('taxable'), ('vat'), ('ded'), ('nonded')) k(kind)
     where g.side = 'purchase' or k.kind in ('taxable', 'vat')
  ),
  ${allocateSql("fx_input", "fx_shares")},
  eur as (
    select g.side, g.id, g.ord, g.classifier, g.rate_pct,
           coalesce(t.share, g.taxable) as taxable_eur, coalesce(v.share, g.vat) as vat_eur,
           case when g.side = 'sale' then null else coalesce(dd.share, g.ded) end as ded_eur,
           case when g.side = 'sale' then null else coalesce(nd.share, g.nonded) end as nonded_eur
      from gdoc g
      left join fx_shares t on t.id = g.id and t.grp = 'taxable' and t.ord = g.ord
      left join fx_shares v on v.id = g.id and v.grp = 'vat' and v.ord = g.ord
      left join fx_shares dd on dd.id = g.id and dd.grp = 'ded' and dd.ord = g.ord
      left join fx_shares nd on nd.id = g.id and nd.grp = 'nonded' and nd.ord = g.ord
  ),
  -- Every (document, classifier, rate): the plain documents as they are, the rest with their shares.
  drows as (
    select ${DOC_COLUMNS}, e.ord, e.classifier, e.rate_pct, e.taxable_eur, e.vat_eur, e.ded_eur, e.nonded_eur
      from sdocs d join eur e on e.side = d.side and e.id = d.id
    union all
    select * from plain
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
