// The import's writes (rules 2, 3, 5, 7–10), in the caller's transaction, set-based: each section is one statement
// whose rows travel as parallel arrays (`unnest($1::text[], …)`), never one round trip per row. The opening balances
// go through the one posting function (`post`), the history through its batch variant (`postBatch`). Everything the
// database enforces (keys, checks, immutability, the ledger's triggers) still checks every row.
import { randomUUID } from "node:crypto";
import type { Db } from "../db/connection.js";
import { plainQuery } from "../db/prepared.js";
import type { NumberSeriesRow } from "../db/rows.js";
import { numericOverflow, violatedConstraint } from "../db/transaction.js";
import { Decimal } from "../shared/decimal.js";
import { conflict } from "../shared/errors.js";
import { stockTooLarge } from "../inventory/index.js";
import { post, postBatch } from "../ledger/index.js";
import type { InvoiceRow, MigratedNumberSeries, Writes } from "./types.js";

/** Up to 1000 lines per stock operation (stock_movements.line_no). */
const LINES_PER_OPERATION = 1000;

export interface Written {
  openingId: string | null;
  series: Map<string, { id: string; created: boolean }>;
}

/** Called after each part is written (the CLI draws its progress bar from it). */
export type Progress = (done: string) => void;

/** A statement in the import's transaction, `$1` the company; a statement whose rows are read names their type. */
type Query = <Row extends object = never>(text: string, values: unknown[]) => Promise<Row[]>;

const col = <T, V>(rows: readonly T[], f: (row: T) => V) => rows.map(f);

/** Writes the package's rows section by section, in the order the rules and the database's triggers need. */
export async function writeBooks(trx: Db, companyId: string, keyId: string | null, w: Writes, progress: Progress = () => undefined): Promise<Written> {
  // A statement whose rows are read names their type; the others answer rows of nothing (never).
  const q: Query = (text, values) => plainQuery(trx, text, [companyId, ...values]);
  await writeMasterData(q, w).catch(refuseTaken);
  progress("master data");
  const openingId = w.opening ? await postOpening(trx, companyId, keyId, w.opening) : null;
  progress("opening");
  // Rule 5.
  await postBatch(
    trx,
    companyId,
    "migration",
    w.journal.map((t) => ({ ...t, total: new Decimal(t.total) })),
    keyId,
  );
  progress("journal");
  const series = await writeSeries(q, w.series);
  await writeOpenItemsAndAssets(q, w, openingId ?? w.existingOpeningId).catch(refuseTaken);
  progress("invoices, assets");
  // Rule 10: incoming movements dated the cut-over date, each starting a FIFO layer at its unit cost; nothing posted.
  if (w.stock.length) {
    await writeStock(q, keyId, w).catch((error) => {
      // A serial number already in stock (stock_layers_serial_in_stock).
      const violation = violatedConstraint(error);
      if (violation?.sqlstate === "23505") throw changedMeanwhile(violation.constraint);
      // The package's stock added to what a warehouse already holds of an item goes beyond a balance's bounds
      // (stock_levels_within_bounds: the contract's Quantity and Money on every date).
      if (violation?.constraint === "stock_level_within_bounds" || numericOverflow(error)) throw stockTooLarge();
      throw error;
    });
  }
  progress("stock");
  return { openingId, series };
}

/** A code or number the package creates that the service has already (a unique key): created meanwhile. */
function refuseTaken(error: unknown): never {
  const violation = violatedConstraint(error);
  if (violation?.sqlstate === "23505") throw changedMeanwhile(violation.constraint);
  throw error;
}

/** Rule 2: the new accounts, partners, items and asset groups. */
async function writeMasterData(q: Query, w: Writes): Promise<void> {
  if (w.accounts.length) await writeAccounts(q, w.accounts);
  if (w.partners.length) {
    const p = w.partners;
    await q(
      `insert into partners (company_id, code, name, vat_code, is_customer, is_supplier)
       select $1, * from unnest($2::text[], $3::text[], $4::text[], $5::boolean[], $6::boolean[])`,
      [col(p, (r) => r.code), col(p, (r) => r.name), col(p, (r) => r.vatCode), col(p, (r) => r.isCustomer), col(p, (r) => r.isSupplier)],
    );
  }
  if (w.items.length) await writeItems(q, w.items);
  if (w.assetGroups.length) {
    const g = w.assetGroups;
    await q(
      `insert into asset_groups (company_id, code, name, asset_account_code, depreciation_account_code, expense_account_code, default_useful_life_months)
       select $1, * from unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::int[])`,
      [
        col(g, (r) => r.code),
        col(g, (r) => r.name),
        col(g, (r) => r.assetAccountCode),
        col(g, (r) => r.depreciationAccountCode),
        col(g, (r) => r.expenseAccountCode),
        col(g, (r) => r.defaultUsefulLifeMonths),
      ],
    );
  }
}

/** Parents first (the order checkBooks gives): the hierarchy trigger sees each parent before its children. */
async function writeAccounts(q: Query, a: Writes["accounts"]): Promise<void> {
  await q(
    `insert into ledger_accounts (company_id, code, name, type, parent_code, is_postable, statement_line, saft_account_table_id, saft_account_type)
     select $1, code, name, type, parent_code, is_postable, statement_line, saft_account_table_id, saft_account_type
       from unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::boolean[], $7::text[], $8::text[], $9::text[])
            with ordinality as t(code, name, type, parent_code, is_postable, statement_line, saft_account_table_id, saft_account_type, n)
      order by n`,
    [
      col(a, (r) => r.code),
      col(a, (r) => r.name),
      col(a, (r) => r.type),
      col(a, (r) => r.parentCode),
      col(a, (r) => r.isPostable),
      col(a, (r) => r.statementLine),
      col(a, (r) => r.saftAccountTableId),
      col(a, (r) => r.saftAccountType),
    ],
  );
}

/** With the VAT classifier a bare rate names in the company's country (as catalog/items/create defaults it). */
async function writeItems(q: Query, it: Writes["items"]): Promise<void> {
  await q(
    `with classifier as (
       select distinct on (c.rate) c.rate, c.code from vat_classifiers c join companies co on co.id = $1 and c.country_code = co.country_code
        where c.default_for_rate order by c.rate, c.valid_from desc
     )
     insert into catalog_items (company_id, code, name, type, unit, barcode, vat_rate_percent, sale_price_excl_vat, purchase_price_excl_vat, vat_classifier)
     select $1, t.code, t.name, t.type, t.unit, t.barcode, t.rate, t.sale, t.purchase, classifier.code
       from unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::numeric[], $8::numeric[], $9::numeric[]) as t(code, name, type, unit, barcode, rate, sale, purchase)
       left join classifier on classifier.rate = t.rate`,
    [
      col(it, (r) => r.code),
      col(it, (r) => r.name),
      col(it, (r) => r.type),
      col(it, (r) => r.unit),
      col(it, (r) => r.barcode),
      col(it, (r) => r.vatRatePercent),
      col(it, (r) => r.salePrice),
      col(it, (r) => r.purchasePrice),
    ],
  );
}

/** Rule 3: one transaction through the one posting function (it checks the lines again and announces the posting). */
async function postOpening(trx: Db, companyId: string, keyId: string | null, opening: NonNullable<Writes["opening"]>): Promise<string> {
  const posted = await post(trx, {
    companyId,
    date: opening.date,
    description: opening.description,
    documentType: "migration_opening",
    entries: opening.entries,
    createdByKeyId: keyId,
  }).catch((error) => {
    if (violatedConstraint(error)?.constraint === "journal_transactions_one_opening")
      throw conflict("An opening-balance transaction was posted meanwhile.", "migration.opening_balances_exist");
    throw error;
  });
  return posted.id;
}

/** Rule 8: raised, never lowered (also the trigger number_series_never_lowered). */
async function writeSeries(q: Query, s: Writes["series"]): Promise<Written["series"]> {
  const series = new Map<string, { id: string; created: boolean }>();
  if (!s.length) return series;
  const rows = await q<Pick<NumberSeriesRow, "id" | "prefix"> & { created: boolean }>(
    `insert into number_series (company_id, document_type, prefix, year, next_number)
     select $1, 'sale_invoice', * from unnest($2::text[], $3::int[], $4::bigint[])
     on conflict (company_id, document_type, prefix, year)
       do update set next_number = greatest(number_series.next_number, excluded.next_number), updated_at = now()
     returning id, prefix, (xmax = 0) as created`,
    [col(s, (r) => r.prefix), col(s, (r) => r.year), col(s, (r) => r.nextNumber)],
  );
  for (const r of rows) series.set(r.prefix, { id: r.id, created: r.created });
  return series;
}

const invoiceColumns = (rows: InvoiceRow[]) => [
  col(rows, (r) => r.partnerCode),
  col(rows, (r) => r.number),
  col(rows, (r) => r.seriesPrefix),
  col(rows, (r) => r.issueDate),
  col(rows, (r) => r.dueDate),
  col(rows, (r) => r.currency),
  col(rows, (r) => r.rate),
  col(rows, (r) => r.rateSource),
  col(rows, (r) => r.net),
  col(rows, (r) => r.vat),
  col(rows, (r) => r.gross),
  col(rows, (r) => r.grossBase),
  col(rows, (r) => r.paid),
  col(rows, (r) => r.outstanding),
];
/** The invoices' rows (invoiceColumns as `$4`…`$17`), each with its partner. */
const FROM_INVOICES = `from unnest($4::text[], $5::text[], $6::text[], $7::date[], $8::date[], $9::text[], $10::numeric[], $11::text[], $12::numeric[],
                      $13::numeric[], $14::numeric[], $15::numeric[], $16::numeric[], $17::numeric[])
         as t(partner_code, number, prefix, issue_date, due_date, currency, rate, rate_source, net, vat, gross, gross_base, paid, outstanding)
       join partners p on p.company_id = $1 and p.code = t.partner_code`;
/** The partner snapshot, taken as issuing takes it (src/invoicing/documents.ts, partnerSnapshot). */
const SNAPSHOT = `jsonb_build_object('code', p.code, 'name', p.name, 'vatCode', p.vat_code, 'registrationCode', p.registration_code,
       'countryCode', p.country_code, 'address', p.address, 'isPrivatePerson', p.is_private_person)`;

/**
 * Rule 7: totals only, no lines, not posted again; linked to the opening-balance transaction (`link`). `source` goes
 * into the notes. Rule 9: the fixed assets.
 */
async function writeOpenItemsAndAssets(q: Query, w: Writes, link: string | null): Promise<void> {
  if (w.receivables.length) {
    await q(
      `insert into sale_invoices (company_id, type, status, series_prefix, number, partner_code, partner_snapshot, issue_date, due_date, currency, rate,
                                  rate_source, rate_date, notes, net_total, vat_total, gross_total, gross_total_base, paid_amount, outstanding,
                                  journal_transaction_id, issued_at, migrated)
       select $1, 'invoice', 'issued', t.prefix, t.number, t.partner_code, ${SNAPSHOT}, t.issue_date, t.due_date, t.currency, t.rate,
              t.rate_source, t.issue_date, $2, t.net, t.vat, t.gross, t.gross_base, t.paid, t.outstanding, $3::uuid, now(), true
       ${FROM_INVOICES}`,
      [w.notes, link, ...invoiceColumns(w.receivables)],
    );
  }
  if (w.payables.length) {
    await q(
      `insert into purchase_invoices (company_id, type, status, partner_code, partner_snapshot, document_number, document_date, due_date, currency,
                                      vat_treatment, rate, rate_source, rate_date, notes, net_total, vat_total, gross_total, gross_total_base,
                                      paid_amount, outstanding, journal_transaction_id, registered_at, migrated)
       select $1, 'invoice', 'registered', t.partner_code, ${SNAPSHOT}, t.number, t.issue_date, t.due_date, t.currency,
              'standard', t.rate, t.rate_source, t.issue_date, $2, t.net, t.vat, t.gross, t.gross_base, t.paid, t.outstanding, $3::uuid, now(), true
       ${FROM_INVOICES}`,
      [w.notes, link, ...invoiceColumns(w.payables)],
    );
  }
  if (w.assets.length) await writeAssets(q, w.assets);
}

/** Rule 9: with their depreciation to date; nothing posted. */
async function writeAssets(q: Query, a: Writes["assets"]): Promise<void> {
  await q(
    `insert into fixed_assets (company_id, code, name, group_code, acquisition_date, put_into_use_date, depreciation_start_date, acquisition_cost,
                               salvage_value, useful_life_months, opening_accumulated_depreciation, opening_depreciated_months,
                               accumulated_depreciation, depreciated_months, status)
     select $1, code, name, group_code, acquired, acquired, starts, cost, salvage, life, accumulated, months, accumulated, months, status
       from unnest($2::text[], $3::text[], $4::text[], $5::date[], $6::date[], $7::numeric[], $8::numeric[], $9::int[], $10::numeric[], $11::int[], $12::text[])
            as t(code, name, group_code, acquired, starts, cost, salvage, life, accumulated, months, status)`,
    [
      col(a, (r) => r.code),
      col(a, (r) => r.name),
      col(a, (r) => r.groupCode),
      col(a, (r) => r.acquisitionDate),
      col(a, (r) => r.depreciationStartDate),
      col(a, (r) => r.cost),
      col(a, (r) => r.salvage),
      col(a, (r) => r.usefulLifeMonths),
      col(a, (r) => r.accumulated),
      col(a, (r) => r.depreciatedMonths),
      col(a, (r) => r.status),
    ],
  );
}

async function writeStock(q: Query, keyId: string | null, w: Writes): Promise<void> {
  // One operation per warehouse and 1000 rows; one movement and one layer per row.
  const operations: { id: string; warehouseId: string }[] = [];
  const movements: { id: string; operationId: string; lineNo: number; row: Writes["stock"][number] }[] = [];
  const byWarehouse = new Map<string, Writes["stock"]>();
  for (const row of w.stock) {
    if (!byWarehouse.has(row.warehouseId)) byWarehouse.set(row.warehouseId, []);
    byWarehouse.get(row.warehouseId)!.push(row);
  }
  for (const [warehouseId, rows] of byWarehouse) {
    for (let start = 0; start < rows.length; start += LINES_PER_OPERATION) {
      const operation = { id: randomUUID(), warehouseId };
      operations.push(operation);
      rows.slice(start, start + LINES_PER_OPERATION).forEach((row, k) => movements.push({ id: randomUUID(), operationId: operation.id, lineNo: k + 1, row }));
    }
  }
  await q(
    `insert into stock_operations (company_id, id, kind, date, warehouse_id, notes, created_by_key_id)
     select $1, t.id, 'migration', $2, t.warehouse_id, $3, $4::uuid from unnest($5::uuid[], $6::uuid[]) as t(id, warehouse_id)`,
    [w.cutoverDate, w.notes, keyId, operations.map((o) => o.id), operations.map((o) => o.warehouseId)],
  );
  const m = movements;
  await q(
    `insert into stock_movements (company_id, id, operation_id, line_no, direction, date, warehouse_id, item_code, quantity, value)
     select $1, t.id, t.operation_id, t.line_no, 'in', $2, t.warehouse_id, t.item_code, t.quantity, t.value
       from unnest($3::uuid[], $4::uuid[], $5::int[], $6::uuid[], $7::text[], $8::numeric[], $9::numeric[]) as t(id, operation_id, line_no, warehouse_id, item_code, quantity, value)`,
    [
      w.cutoverDate,
      m.map((x) => x.id),
      m.map((x) => x.operationId),
      m.map((x) => x.lineNo),
      m.map((x) => x.row.warehouseId),
      m.map((x) => x.row.itemCode),
      m.map((x) => x.row.quantity),
      m.map((x) => x.row.value),
    ],
  );
  // In the rows' order, so that the layers' FIFO sequence follows the package.
  await q(
    `insert into stock_layers (company_id, movement_id, warehouse_id, item_code, date, quantity, remaining_quantity, unit_cost, value, remaining_value,
                               lot_number, expiry_date, serial_number)
     select $1, t.id, t.warehouse_id, t.item_code, $2, t.quantity, t.quantity, t.unit_cost, t.value, t.value, t.lot, t.expiry, t.serial
       from unnest($3::uuid[], $4::uuid[], $5::text[], $6::numeric[], $7::numeric[], $8::numeric[], $9::text[], $10::date[], $11::text[])
              with ordinality as t(id, warehouse_id, item_code, quantity, value, unit_cost, lot, expiry, serial, n)
      order by t.n`,
    [
      w.cutoverDate,
      m.map((x) => x.id),
      m.map((x) => x.row.warehouseId),
      m.map((x) => x.row.itemCode),
      m.map((x) => x.row.quantity),
      m.map((x) => x.row.value),
      m.map((x) => x.row.unitCost),
      m.map((x) => x.row.lotNumber),
      m.map((x) => x.row.expiryDate),
      m.map((x) => x.row.serialNumber),
    ],
  );
  // Each item's quantity and value per warehouse (src/inventory: the sum of its open layers).
  await q(
    `insert into stock_balances (company_id, item_code, warehouse_id, quantity, value)
     select $1, item_code, warehouse_id, sum(quantity), sum(value)
       from unnest($2::text[], $3::uuid[], $4::numeric[], $5::numeric[]) as t(item_code, warehouse_id, quantity, value)
      group by item_code, warehouse_id
     on conflict (company_id, item_code, warehouse_id)
       do update set quantity = stock_balances.quantity + excluded.quantity, value = stock_balances.value + excluded.value`,
    [m.map((x) => x.row.itemCode), m.map((x) => x.row.warehouseId), m.map((x) => x.row.quantity), m.map((x) => x.row.value)],
  );
}

const changedMeanwhile = (constraint?: string) =>
  conflict(
    "A code, number or serial number of the package exists in the service (it was created while importing, or is a serial number in stock); validate again.",
    "migration.codes_exist",
    { constraint },
  );

export function seriesResult(planned: MigratedNumberSeries[], written: Written["series"]): MigratedNumberSeries[] {
  return planned.map((s) => ({ ...s, id: written.get(s.prefix)?.id ?? s.id }));
}
