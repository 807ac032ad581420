// What each sales and purchase document declares for VAT, stored when it posts (issues 24 and 27): one row per
// (document, VAT classifier, rate) in vat_declared_rows with its amounts in EUR, and one row per (document, VAT
// account) in vat_declared_accounts with what the document declares on the account and what its journal transaction
// posted there, and the month's sums of both (vat_declared_sums per classifier and rate, vat_declared_account_sums per
// account; 16 stripes per key by server process, as ledger_balances, summed on read). The declarations
// (src/declarations/lt: i.SAF, FR0600, FR0564) read these rows instead of deriving them again from every document of
// a month; FR0600 reads the sums, and its reconciliation the pairs.
//
// Kept by statement triggers on sale_invoices and purchase_invoices (migration 20261127008000), in the transaction
// that posts: a document stored when it leaves draft (issued or registered: its journal transaction, written in the
// same statement, is visible to the trigger) and stored again when it is annulled (its rows declare nothing then, and
// its reversal nets its posting to 0). Migrated documents (the books import) declare nothing and are not stored.
// Nothing else writes the tables (vat_declared_written_by_store, below).
//
// The amounts, to the cent of what was posted:
//   base      the taxable value
//   vat       a sale's output VAT; a purchase's VAT charged by the supplier, or calculated by the buyer on a reverse
//             charge (0 on an import or exempt purchase)
//   ded       (purchases) the part of vat deducted as input VAT; nonded the part that is not and is posted to
//             purchases.vatNonDeductible (a fixed asset line's non-deductible share is the asset's cost: in neither)
// A document in EUR is its stored breakdown (vat_breakdown; a purchase with non-deductible lines shares each rate's
// VAT between its lines by net, largest remainder, as posting shares it: src/purchases/invoices.ts purchaseParts).
// A document in another currency was posted with convertParts (src/invoicing/totals.ts), whose cents depend on every
// part of the posting, so its EUR totals are read from its own journal transaction — the VAT on the accounts of the
// VAT posting rules, the rest of the receivable or payable (gross_total_base) the taxable value — and shared between
// its (classifier, rate) groups in proportion to their amounts in its currency (largest remainder). An import
// invoice's VAT paid to customs is a row of classifier `customs` (ord 0): deducted, posted to purchases.vatReceivable.
//
// The accounts of the rules are the company's posting_rules, else the defaults of src/shared/posting-rule-defaults.ts
// (the same table src/ledger/posting-rules.ts reads), as at posting.
import { POSTING_RULE_DEFAULT_ACCOUNTS as DEFAULTS } from "../../shared/posting-rule-defaults.js";

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

const rule = (name: keyof typeof DEFAULTS) =>
  `coalesce((select r.account_code from posting_rules r where r.company_id = p_company and r.rule = '${name}'), '${DEFAULTS[name]}')`;

/** How a document counts: −1 for a credit note, 0 for an annulled document (its posting reversed), else 1. */
const SIGN = "case when d.status = 'annulled' then 0 when d.type = 'credit_note' then -1 else 1 end";

// Without JIT: the planner's guesses for the statement's CTEs put its cost above jit_above_cost, and compiling it
// took seconds where running it takes milliseconds. With generic plans: planning the statement for each document
// took 4 ms of the 5 its store took, inside the issuing statement that holds the number series' row (issue
// throughput fell from 287 to 90 documents/s); planned once per connection it takes about 1 ms. The plan looks each
// document up by its key, which serves one document and a migration's hundred thousand alike.
const store = `create or replace function vat_declared_store(p_company uuid, p_sales uuid[], p_purchases uuid[], p_restore boolean default true) returns void
  language plpgsql volatile
  set jit = off
  set plan_cache_mode = force_generic_plan
as $$
    declare
      a_payable text := ${rule("sales.vatPayable")};
      a_receivable text := ${rule("purchases.vatReceivable")};
      a_nonded text := ${rule("purchases.vatNonDeductible")};
      a_rc_input text := ${rule("purchases.reverseChargeVatInput")};
      a_rc_output text := ${rule("purchases.reverseChargeVatOutput")};
      a_stock text := ${rule("inventory.stock")};
      v_special_sales uuid[];
      v_special_purchases uuid[];
    begin
      perform set_config('vat.declared_writer', 'store', true);
      -- The documents by their keys throughout (a join with the lists, not = any(): a long list would be compared with
      -- every row). A document stored again (p_restore: annulled, or the migration's pass): what its rows added to the
      -- month's sums is taken out first, and its rows deleted; a document leaving draft has none.
      if p_restore then
      insert into vat_declared_sums as t (company_id, month, side, classifier, rate_pct, stripe, documents, base, vat, ded)
      select p_company, date_trunc('month', v.decl_date)::date, v.side, v.classifier, v.rate_pct, (pg_backend_pid() % 16)::smallint,
             -count(*) filter (where v.sign <> 0), -sum(v.sign * v.base), -sum(v.sign * v.vat), -sum(v.sign * coalesce(v.ded, 0))
        from unnest(p_sales || p_purchases) u(id) join vat_declared_rows v on v.company_id = p_company and v.document_id = u.id
       group by 2, 3, 4, 5
       order by 2, 3, 4, 5
      on conflict (company_id, month, side, classifier, rate_pct, stripe) do update
         set documents = t.documents + excluded.documents, base = t.base + excluded.base, vat = t.vat + excluded.vat, ded = t.ded + excluded.ded;
      insert into vat_declared_account_sums as t (company_id, month, account_code, stripe, declared, posted, differing)
      select p_company, date_trunc('month', v.decl_date)::date, v.account_code, (pg_backend_pid() % 16)::smallint,
             -sum(v.declared), -sum(v.posted), -count(*) filter (where v.declared <> v.posted)
        from unnest(p_sales || p_purchases) u(id) join vat_declared_accounts v on v.company_id = p_company and v.document_id = u.id
       group by 2, 3
       order by 2, 3
      on conflict (company_id, month, account_code, stripe) do update
         set declared = t.declared + excluded.declared, posted = t.posted + excluded.posted, differing = t.differing + excluded.differing;
      delete from vat_declared_rows v using unnest(p_sales || p_purchases) u(id) where v.company_id = p_company and v.document_id = u.id;
      delete from vat_declared_accounts v using unnest(p_sales || p_purchases) u(id) where v.company_id = p_company and v.document_id = u.id;
      end if;

      -- The documents whose EUR amounts need shares (another currency; a purchase with non-deductible lines).
      select array_agg(s.id) into v_special_sales
        from unnest(p_sales) u(id) join sale_invoices s on s.company_id = p_company and s.id = u.id
       where s.status <> 'draft' and not s.migrated and coalesce(s.rate, 1) <> 1;
      select array_agg(p.id) into v_special_purchases
        from unnest(p_purchases) u(id) join purchase_invoices p on p.company_id = p_company and p.id = u.id
       where p.status <> 'draft' and not p.migrated
         and (coalesce(p.rate, 1) <> 1 or (p.vat_treatment in ('standard', 'reverse_charge') and exists (
               select 1 from purchase_invoice_lines l where l.company_id = p.company_id and l.invoice_id = p.id and not l.vat_deductible)));

      -- Their rows, shared as posting shared them (one statement, run only when there are such documents).
      if v_special_sales is not null or v_special_purchases is not null then
      insert into vat_declared_rows (company_id, side, document_id, ord, type, annulled, sign, decl_date, doc_no, partner_code, treatment,
                                     journal_transaction_id, classifier, rate_pct, base, vat, ded, nonded)
      with sdocs as materialized (
        select 'sale'::text as side, s.id, s.type, s.status, s.issue_date as decl_date, s.number as doc_no, s.partner_code, s.rate,
               s.gross_total_base as base_total, s.journal_transaction_id, s.vat_breakdown, 'standard'::text as treatment
          from unnest(coalesce(v_special_sales, '{}')) u(id) join sale_invoices s on s.company_id = p_company and s.id = u.id
        union all
        select 'purchase'::text, p.id, p.type, p.status, p.accounting_date, p.document_number, p.partner_code, p.rate,
               p.gross_total_base, p.journal_transaction_id, p.vat_breakdown, p.vat_treatment
          from unnest(coalesce(v_special_purchases, '{}')) u(id) join purchase_invoices p on p.company_id = p_company and p.id = u.id
      ),
      groups as (
        select d.side, d.id, g.ord, g.v ->> 'vatClassifier' as classifier, (g.v ->> 'vatRatePercent')::numeric as rate_pct,
               (g.v ->> 'taxableAmount')::numeric as taxable, (g.v ->> 'vatAmount')::numeric as vat
          from sdocs d cross join lateral jsonb_array_elements(d.vat_breakdown) with ordinality g(v, ord)
      ),
      -- Purchases with a non-deductible line: each rate's VAT shared between its lines by net, as posting shares it. A
      -- non-deductible line on an asset account (a fixed asset's cost; not received into stock) capitalises its
      -- share: it is posted to that account, not to purchases.vatNonDeductible.
      plines as (
        select d.id, l.line_no, l.vat_classifier as classifier, l.vat_rate_percent as rate_pct, l.net_amount, l.vat_deductible,
               (not l.vat_deductible and l.warehouse_code is null and la.code is not null) as capitalised,
               bool_or(not l.vat_deductible) over (partition by d.id) as mixed
          from sdocs d join purchase_invoice_lines l on l.company_id = p_company and l.invoice_id = d.id
          left join ledger_accounts la on la.company_id = p_company and la.code = l.expense_account_code and la.type = 'asset'
            and la.code is distinct from a_stock
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
            select abs(sum(e.credit - e.debit) filter (where e.account_code = a_payable)) as vat_payable,
                   abs(sum(e.debit - e.credit) filter (where e.account_code = a_receivable)) as vat_receivable,
                   abs(sum(e.debit - e.credit) filter (where e.account_code = a_nonded)) as nonded,
                   abs(sum(e.debit - e.credit) filter (where e.account_code = a_rc_input)) as reverse_input,
                   abs(sum(e.credit - e.debit) filter (where e.account_code = a_rc_output)) as reverse_output
              from journal_entries e
             where e.company_id = p_company and e.transaction_id = d.journal_transaction_id
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
      work as (
      select g.side, g.id, g.ord::int as ord, g.classifier, g.rate_pct,
             coalesce(t.share, g.taxable) as base, coalesce(v.share, g.vat) as vat,
             case when g.side = 'sale' then null else coalesce(dd.share, g.ded) end as ded,
             case when g.side = 'sale' then null else coalesce(nd.share, g.nonded) end as nonded
        from gdoc g
        left join fx_shares t on t.id = g.id and t.grp = 'taxable' and t.ord = g.ord
        left join fx_shares v on v.id = g.id and v.grp = 'vat' and v.ord = g.ord
        left join fx_shares dd on dd.id = g.id and dd.grp = 'ded' and dd.ord = g.ord
        left join fx_shares nd on nd.id = g.id and nd.grp = 'nonded' and nd.ord = g.ord
      )
      select p_company, w.side, w.id, w.ord, d.type, d.status = 'annulled', ${SIGN}, d.decl_date, d.doc_no, d.partner_code, d.treatment,
             d.journal_transaction_id, w.classifier, w.rate_pct, w.base, w.vat, w.ded, w.nonded
        from work w join sdocs d on d.side = w.side and d.id = w.id;
      end if;

      -- Every document's plain rows (and an import's VAT paid to customs, ord 0), stored; then, with the rows stored
      -- above, the month's sums, and the pairs of declared and posted amounts per VAT account. One statement.
      with d as materialized (
        select 'sale'::text as side, s.id, s.type, s.status, s.issue_date as decl_date, s.number as doc_no, s.partner_code, 'standard'::text as treatment,
               s.journal_transaction_id, s.annulment_transaction_id, s.vat_breakdown, s.id = any(coalesce(v_special_sales, '{}')) as special,
               null::numeric as customs_vat
          from unnest(p_sales) u(id) join sale_invoices s on s.company_id = p_company and s.id = u.id
         where s.status <> 'draft' and not s.migrated
        union all
        select 'purchase', p.id, p.type, p.status, p.accounting_date, p.document_number, p.partner_code, p.vat_treatment, p.journal_transaction_id, null,
               p.vat_breakdown, p.id = any(coalesce(v_special_purchases, '{}')), p.customs_vat
          from unnest(p_purchases) u(id) join purchase_invoices p on p.company_id = p_company and p.id = u.id
         where p.status <> 'draft' and not p.migrated
      ),
      -- A plain document (in EUR; a purchase without non-deductible lines) is its stored breakdown: its VAT is
      -- deducted in full (a standard or reverse-charge purchase) or not at all (import, exempt).
      plain as (
        select d.side, d.id, g.ord::int as ord, g.v ->> 'vatClassifier' as classifier, (g.v ->> 'vatRatePercent')::numeric as rate_pct,
               (g.v ->> 'taxableAmount')::numeric as base, (g.v ->> 'vatAmount')::numeric as vat,
               case when d.side = 'sale' then null when d.treatment in ('standard', 'reverse_charge') then (g.v ->> 'vatAmount')::numeric else 0 end as ded,
               case when d.side = 'sale' then null else 0 end as nonded
          from d cross join lateral jsonb_array_elements(d.vat_breakdown) with ordinality g(v, ord)
         where not d.special
        union all
        select side, id, 0, 'customs', 0, 0, customs_vat, customs_vat, 0 from d where customs_vat > 0
      ),
      fresh as (
        select w.side, w.id, w.ord, w.classifier, w.rate_pct, w.base::numeric(17,2) as base, w.vat::numeric(17,2) as vat,
               w.ded::numeric(17,2) as ded, w.nonded::numeric(17,2) as nonded,
               d.type, d.status, d.decl_date, d.doc_no, d.partner_code, d.treatment, d.journal_transaction_id, ${SIGN} as sign
          from plain w join d on d.side = w.side and d.id = w.id
      ),
      stored as (
        insert into vat_declared_rows (company_id, side, document_id, ord, type, annulled, sign, decl_date, doc_no, partner_code, treatment,
                                       journal_transaction_id, classifier, rate_pct, base, vat, ded, nonded)
        select p_company, side, id, ord, type, status = 'annulled', sign, decl_date, doc_no, partner_code, treatment,
               journal_transaction_id, classifier, rate_pct, base, vat, ded, nonded
          from fresh
      ),
      -- All the documents' rows: the plain ones of this statement, the shared ones stored before it.
      signed as (
        select side, id, ord, classifier, rate_pct, base, vat, ded, nonded, decl_date, treatment, sign from fresh
        union all
        select v.side, v.document_id, v.ord, v.classifier, v.rate_pct, v.base, v.vat, v.ded, v.nonded, v.decl_date, v.treatment, v.sign
          from d join vat_declared_rows v on v.company_id = p_company and v.document_id = d.id
         where d.special
      ),
      -- The month's sums per classifier and rate (FR0600 reads them, not every row), in one of 16 stripes by server
      -- process, as ledger_balances: concurrent postings rarely wait on one another's row.
      row_sums as (
        insert into vat_declared_sums as t (company_id, month, side, classifier, rate_pct, stripe, documents, base, vat, ded)
        select p_company, date_trunc('month', decl_date)::date, side, classifier, rate_pct, (pg_backend_pid() % 16)::smallint,
               count(*) filter (where sign <> 0), sum(sign * base), sum(sign * vat), sum(sign * coalesce(ded, 0))
          from signed
         group by 2, 3, 4, 5
         order by 2, 3, 4, 5
        on conflict (company_id, month, side, classifier, rate_pct, stripe) do update
           set documents = t.documents + excluded.documents, base = t.base + excluded.base, vat = t.vat + excluded.vat, ded = t.ded + excluded.ded
      ),
      -- Per document and VAT account: what it declares there as a debit (its sign applied) and what its journal
      -- transaction posted there (with an annulled invoice's reversal: together they post nothing).
      declared as (
        select w.id, k.account, sum(w.sign * k.amount) as amount
          from signed w
          cross join lateral (values
            (a_payable, case when w.side = 'sale' then -w.vat end),
            (a_receivable, case when w.side = 'purchase' and (w.treatment = 'standard' or w.classifier = 'customs') then w.ded end),
            (a_nonded, case when w.side = 'purchase' and w.treatment in ('standard', 'reverse_charge') then w.nonded end),
            (a_rc_input, case when w.side = 'purchase' and w.treatment = 'reverse_charge' then w.ded end),
            (a_rc_output, case when w.side = 'purchase' and w.treatment = 'reverse_charge' then -w.vat end)
          ) k(account, amount)
         where k.amount is not null
         group by 1, 2
      ),
      -- Each transaction's lines by its key (offset 0 keeps the look-up per transaction: a planner that misjudges the
      -- company's lines would otherwise join every VAT line of the company with every document).
      posted as (
        select t.id, e.account_code as account, sum(e.debit - e.credit) as amount
          from (select id, journal_transaction_id as tx from d union all select id, annulment_transaction_id from d where annulment_transaction_id is not null) t
          cross join lateral (
            select e.account_code, e.debit, e.credit from journal_entries e
             where e.company_id = p_company and e.transaction_id = t.tx
               and e.account_code in (a_payable, a_receivable, a_nonded, a_rc_input, a_rc_output)
            offset 0
          ) e
         group by 1, 2
      ),
      pairs as (
        select d.side, d.id, d.decl_date, d.journal_transaction_id, x.account, coalesce(x.declared, 0) as declared, coalesce(x.posted, 0) as posted
          from d join (select coalesce(dc.id, po.id) as id, coalesce(dc.account, po.account) as account, dc.amount as declared, po.amount as posted
                         from declared dc full join posted po on po.id = dc.id and po.account = dc.account) x on x.id = d.id
      ),
      stored_pairs as (
        insert into vat_declared_accounts (company_id, side, document_id, decl_date, journal_transaction_id, account_code, declared, posted)
        select p_company, side, id, decl_date, journal_transaction_id, account, declared, posted from pairs
      )
      insert into vat_declared_account_sums as t (company_id, month, account_code, stripe, declared, posted, differing)
      select p_company, date_trunc('month', decl_date)::date, account, (pg_backend_pid() % 16)::smallint,
             sum(declared), sum(posted), count(*) filter (where declared <> posted)
        from pairs
       group by 2, 3
       order by 2, 3
      on conflict (company_id, month, account_code, stripe) do update
         set declared = t.declared + excluded.declared, posted = t.posted + excluded.posted, differing = t.differing + excluded.differing;

      perform set_config('vat.declared_writer', '', true);
    end $$;`;

/**
 * The documents of a statement's changed rows that are stored: those leaving draft (fresh: nothing stored yet), and
 * those annulled (stored again).
 */
const trigger = (table: "sale_invoices" | "purchase_invoices", op: "insert" | "update") => {
  const changed =
    op === "insert"
      ? "select company_id, id, true as fresh from new_rows where status <> 'draft' and not migrated"
      : `select n.company_id, n.id, o.status = 'draft' as fresh from new_rows n join old_rows o on o.company_id = n.company_id and o.id = n.id
          where n.status <> 'draft' and not n.migrated and (o.status = 'draft' or (n.status = 'annulled' and o.status <> 'annulled'))`;
  const ids = table === "sale_invoices" ? "c.ids, '{}'::uuid[]" : "'{}'::uuid[], c.ids";
  return `create or replace function vat_declared_${table}_${op}() returns trigger language plpgsql as $$
    begin
      perform vat_declared_store(c.company_id, ${ids}, not c.fresh)
         from (select company_id, fresh, array_agg(id order by id) as ids from (${changed}) x group by company_id, fresh order by company_id, fresh) c;
      return null;
    end $$;`;
};

/**
 * The tables' one writer is vat_declared_store, which marks itself with the transaction-local setting
 * vat.declared_writer; any other insert, update or delete is refused (a statement-level guard).
 */
const guard = `create or replace function vat_declared_written_by_store() returns trigger language plpgsql as $$
    begin
      if current_setting('vat.declared_writer', true) is distinct from 'store' then
        raise exception '% is kept by the documents'' triggers only (%)', tg_table_name, tg_op
          using errcode = 'integrity_constraint_violation', constraint = 'vat_declared_written_by_store';
      end if;
      return null;
    end $$;`;

export const statements = [
  store,
  trigger("sale_invoices", "insert"),
  trigger("sale_invoices", "update"),
  trigger("purchase_invoices", "insert"),
  trigger("purchase_invoices", "update"),
  guard,
];
