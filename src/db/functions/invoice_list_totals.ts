// The invoice lists' per-group sums (issue 10: the list over a million invoices answers in milliseconds), kept by
// statement triggers in the transaction of every insert, update and delete of a document — whoever writes it (the API,
// the bank module settling it, the books import) — so they are exact at every commit:
// - sale_invoice_totals / purchase_invoice_totals: per company, status, type, partner, currency, series prefix
//   (sales) or VAT treatment (purchases) and month of the document's date, the number of documents and the sums of
//   net, VAT, gross and outstanding; a list reads them when every filter is on those fields (src/shared/list-engine.ts,
//   Rollup);
// - sale_invoice_open_totals / purchase_invoice_open_totals: the open documents (issued/registered or partially paid,
//   something outstanding) per the same keys and due date, for the overdue filter.
// Each trigger adds to one of 16 stripes of a group, chosen by the server process (pg_backend_pid), so concurrent
// transactions rarely wait for one another's rollup row; a list sums the stripes. A statement's rows are summed per
// group first (transition tables), so a bulk insert touches each group once, and a change that moves no figure of a
// group touches no rollup row at all. The tables and triggers are migrations 20261124000150 and 20261124000151.

interface Rollup {
  table: "sale_invoices" | "purchase_invoices";
  rollup: string;
  /** The key columns besides company, status, type, partner and currency. */
  extra: string;
  /** The expression of the last key column, as the rows carry it. */
  last: string;
  /** The condition a document meets to count, if any. */
  where: string;
}

export const ROLLUPS: Rollup[] = [
  { table: "sale_invoices", rollup: "sale_invoice_totals", extra: "series_prefix", last: "date_trunc('month', issue_date)::date as month", where: "" },
  {
    table: "purchase_invoices",
    rollup: "purchase_invoice_totals",
    extra: "vat_treatment",
    last: "date_trunc('month', document_date)::date as month",
    where: "",
  },
  {
    table: "sale_invoices",
    rollup: "sale_invoice_open_totals",
    extra: "series_prefix",
    last: "due_date",
    where: " where status in ('issued', 'partially_paid') and outstanding > 0",
  },
  {
    table: "purchase_invoices",
    rollup: "purchase_invoice_open_totals",
    extra: "vat_treatment",
    last: "due_date",
    where: " where status in ('registered', 'partially_paid') and outstanding > 0",
  },
];

const keyOf = (r: Rollup) => `company_id, status, type, partner_code, currency, ${r.extra}, ${r.last.includes(" as ") ? r.last.split(" as ")[1] : r.last}`;

/** A document table's rows (a transition table, or the table itself) as signed figures of their group. */
export const grouped = (r: Rollup, source: string, sign: string) =>
  `select company_id, status, type, partner_code, currency, ${r.extra}, ${r.last},
              ${sign} as documents, ${sign} * net_total as net_total, ${sign} * vat_total as vat_total, ${sign} * gross_total as gross_total, ${sign} * outstanding as outstanding
         from ${source}${r.where}`;

const apply = (r: Rollup, rows: string) => `
      insert into ${r.rollup} as t (${keyOf(r)}, stripe, documents, net_total, vat_total, gross_total, outstanding)
      select ${keyOf(r)}, (pg_backend_pid() % 16)::smallint, sum(documents), sum(net_total), sum(vat_total), sum(gross_total), sum(outstanding)
        from (${rows}) d
       group by ${keyOf(r)}
      having sum(documents) <> 0 or sum(net_total) <> 0 or sum(vat_total) <> 0 or sum(gross_total) <> 0 or sum(outstanding) <> 0
       order by ${keyOf(r)}
      on conflict (${keyOf(r)}, stripe) do update
         set documents = t.documents + excluded.documents, net_total = t.net_total + excluded.net_total, vat_total = t.vat_total + excluded.vat_total,
             gross_total = t.gross_total + excluded.gross_total, outstanding = t.outstanding + excluded.outstanding;`;

const fn = (name: string, body: string) => `create or replace function ${name}() returns trigger language plpgsql as $$
      begin
        ${body}
        return null;
      end $$;`;

/** For each rollup: <rollup>_insert, _update and _delete, the functions of its three statement triggers. */
export const statements = ROLLUPS.flatMap((r) => [
  fn(`${r.rollup}_insert`, apply(r, grouped(r, "new_rows", "1"))),
  fn(`${r.rollup}_update`, apply(r, `${grouped(r, "new_rows", "1")} union all ${grouped(r, "old_rows", "-1")}`)),
  fn(`${r.rollup}_delete`, apply(r, grouped(r, "old_rows", "-1"))),
]);
