// SAF-T LT 2.01 assets (data type `AS`): MasterFiles/Assets and SourceDocuments/AssetTransactions of
// shared/schemas/lt/SAFT_2_01.xsd, from the fixed asset register (src/assets): every asset acquired on or before `to`
// and not disposed of before `from`, with its valuation over the range, and every acquisition, monthly depreciation
// and disposal of the range as an asset transaction. Depreciation is a run's line per asset and month; a reversed
// run's lines are not depreciation (the run's posting and its reversal are both in the GL). The assets are written in
// part 1 (a register is thousands of cards, not millions); the transactions in order (date; acquisitions, then
// depreciation, then disposals; asset code), `partSize` a part (SAFT_PART_SIZE), read through a cursor.
//
// What each element holds (the XSD's annotations; what the XSD leaves open is marked "choice"):
//   Asset                     AssetID the asset's code; AccountID its group's asset account; Description its name (and
//                             description); DateOfAcquisition, StartUpDate (put into use); Suppliers the supplier of
//                             the purchase document whose journal transaction the asset names as its source
//                             (sourceTransactionId), with the partner's address.
//   Valuation                 IS (acquisition cost); ValuationClass the group; the cost at the start (0 for an asset
//                             acquired in the range) and at the end (0 once disposed of); AssetLifeMonth the useful
//                             life; AssetDisposal (choice: its acquisition cost) and AssetDisposalDate when disposed of
//                             in the range; BookValueBegin; DepreciationMethod T (straight-line); DepreciationForPeriod
//                             the range's depreciation; AccountID2 the group's accumulated-depreciation account;
//                             AccumulatedDepreciation at the end (an imported asset's depreciation to date included;
//                             0 once disposed of); BookValueEnd. DepreciationDate (of the asset) the first day of the
//                             month after it was put into use.
//   AssetTransaction          AssetTransactionID the asset's code, the type and (depreciation) the month; I an
//                             acquisition (its source transaction and supplier), NUS a month's depreciation (the
//                             run's journal transaction, its first when the month took several), NUR a disposal (its
//                             journal transaction); TransactionID the journal transaction as the GL file names it
//                             (empty for an acquisition that names none: choice); a valuation IS with the cost, the
//                             book value after the transaction, its amount (the cost, the month's depreciation, the
//                             proceeds) and D (acquisition) or K.
import type { Db } from "../../db/connection.js";
import { plainQuery } from "../../db/prepared.js";
import { Decimal } from "../../shared/decimal.js";
import type { XmlWriter } from "../xml-writer.js";
import {
  type SaftCompany,
  type SaftPartWritten,
  type SaftRequest,
  type SaftSizes,
  cut,
  money,
  writeAddress,
  type SaftFrame,
  closePart,
  openPart,
} from "./saft.js";

type PartnerAddress = NonNullable<SaftCompany["address"]>;

/** The supplier of an asset: the partner of the purchase document whose posting the asset names. */
interface SupplierColumns {
  supplier_code: string | null;
  supplier_name: string | null;
  supplier_address: PartnerAddress | null;
  supplier_country: string | null;
}

/** The supplier of asset `a` (alias), as SupplierColumns: a lateral join of its source transaction's purchase. */
const SUPPLIER_SQL = `left join lateral (
    select pa.code as supplier_code, pa.name as supplier_name, pa.country_code as supplier_country,
           -- Its default structured address with a postal code (partners/addresses), else its free address.
           coalesce((select jsonb_build_object('line1', concat_ws(' ', sa.street, sa.building), 'city', sa.city, 'postalCode', sa.postal_code,
                                               'countryCode', sa.country_code)
                       from partner_addresses sa
                      where sa.company_id = pa.company_id and sa.partner_id = pa.id and sa.postal_code is not null
                      order by sa.is_default desc, sa.created_at, sa.id limit 1), pa.address) as supplier_address
      from journal_transactions st
      join purchase_invoices p
        on p.company_id = st.company_id and p.id = (case when st.source_type like 'purchase\\_%' then st.source_id::uuid end)
      join partners pa on pa.company_id = p.company_id and pa.code = p.partner_code
     where st.company_id = a.company_id and st.id = a.source_transaction_id
     limit 1) s on true`;

/** The depreciation lines that count (their run not reversed), with the last day of their month. */
const LIVE_LINES_SQL = `select l.*, (l.month + interval '1 month - 1 day')::date as month_end
    from asset_depreciation_lines l
    join asset_depreciation_runs r on r.company_id = l.company_id and r.month = l.month and r.run_no = l.run_no and r.reversed_at is null
   where l.company_id = $1`;

export interface SaftAssetRow extends SupplierColumns {
  code: string;
  name: string;
  description: string | null;
  group_code: string;
  asset_account: string;
  depreciation_account: string;
  acquisition_date: string;
  put_into_use_date: string;
  depreciation_start_date: string;
  useful_life_months: number;
  cost_begin: string;
  cost_end: string;
  acc_begin: string;
  acc_end: string;
  for_period: string;
  disposal_date: string | null;
  acquisition_cost: string;
}

/** The assets of the file with their valuation over the range (in the caller's transaction). */
export async function loadSaftAssets(db: Db, companyId: string, range: { from: string; to: string }): Promise<SaftAssetRow[]> {
  return plainQuery<SaftAssetRow>(
    db,
    `with live as (${LIVE_LINES_SQL})
     select a.code, a.name, a.description, a.group_code, g.asset_account_code as asset_account, g.depreciation_account_code as depreciation_account,
            a.acquisition_date::text as acquisition_date, a.put_into_use_date::text as put_into_use_date,
            a.depreciation_start_date::text as depreciation_start_date, a.useful_life_months, a.acquisition_cost::text as acquisition_cost,
            a.disposal_date::text as disposal_date,
            (case when a.acquisition_date < $2::date then a.acquisition_cost else 0 end)::text as cost_begin,
            (case when a.disposal_date <= $3::date then 0 else a.acquisition_cost end)::text as cost_end,
            (case when a.acquisition_date < $2::date
                  then coalesce((select l.accumulated_after from live l where l.asset_id = a.id and l.month_end < $2::date order by l.month desc limit 1),
                                a.opening_accumulated_depreciation)
                  else 0 end)::text as acc_begin,
            (case when a.disposal_date <= $3::date then 0
                  else coalesce((select l.accumulated_after from live l where l.asset_id = a.id and l.month_end <= $3::date order by l.month desc limit 1),
                                a.opening_accumulated_depreciation) end)::text as acc_end,
            coalesce((select sum(l.amount) from live l where l.asset_id = a.id and l.month_end between $2::date and $3::date), 0)::text as for_period,
            s.*
       from fixed_assets a
       join asset_groups g on g.company_id = a.company_id and g.code = a.group_code
       ${SUPPLIER_SQL}
      where a.company_id = $1 and a.acquisition_date <= $3::date and (a.disposal_date is null or a.disposal_date >= $2::date)
      order by a.code`,
    [companyId, range.from, range.to],
  );
}

/** The asset transactions of the range in file order: the statement and its values. */
function transactionsSql(companyId: string, range: { from: string; to: string }) {
  return {
    text: `with live as (${LIVE_LINES_SQL}),
      x as (
        select a.acquisition_date as date, 1 as kind, a.code, 'I' as type, null::text as month, a.acquisition_cost as cost,
               a.acquisition_cost - a.opening_accumulated_depreciation as book, a.acquisition_cost as amount, 'D' as dc, a.source_transaction_id as tx,
               a.id as asset_id, a.company_id, a.source_transaction_id
          from fixed_assets a where a.company_id = $1 and a.acquisition_date between $2::date and $3::date
        union all
        select l.month_end, 2, a.code, 'NUS', to_char(l.month, 'YYYY-MM'), a.acquisition_cost, a.acquisition_cost - l.accumulated_after, l.amount, 'K',
               (select rt.journal_transaction_id from asset_depreciation_run_transactions rt
                 where rt.company_id = l.company_id and rt.month = l.month and rt.run_no = l.run_no order by rt.part limit 1),
               a.id, a.company_id, null::uuid
          from live l join fixed_assets a on a.company_id = l.company_id and a.id = l.asset_id
         where l.month_end between $2::date and $3::date
        union all
        select a.disposal_date, 3, a.code, 'NUR', null, a.acquisition_cost, a.acquisition_cost - a.accumulated_depreciation, a.disposal_proceeds, 'K',
               a.disposal_transaction_id, a.id, a.company_id, null::uuid
          from fixed_assets a where a.company_id = $1 and a.disposal_date between $2::date and $3::date
      )
      select a.date::text as date, a.code, a.type, a.month, a.cost::text as cost, a.book::text as book, a.amount::text as amount, a.dc,
             coalesce(t.number, t.id::text) as tx, s.*
        from x a
        left join journal_transactions t on t.company_id = $1 and t.id = a.tx
        ${SUPPLIER_SQL}
       order by a.date, a.kind, a.code`,
    values: [companyId, range.from, range.to],
  };
}

/** The number of asset transactions of the range (the parts are cut by it). */
export async function countSaftAssetTransactions(db: Db, companyId: string, range: { from: string; to: string }): Promise<number> {
  const sql = transactionsSql(companyId, range);
  const [{ n }] = await plainQuery<{ n: number }>(db, `select count(*)::int as n from (${sql.text}) c`, sql.values);
  return n;
}

interface TransactionRow extends SupplierColumns {
  date: string;
  code: string;
  type: "I" | "NUS" | "NUR";
  month: string | null;
  cost: string;
  book: string;
  amount: string;
  dc: "D" | "K";
  tx: string | null;
}

function writeSupplier(w: XmlWriter, row: SupplierColumns, company: SaftCompany): void {
  if (!row.supplier_code) return;
  w.open("Supplier")
    .text("SupplierName", cut(row.supplier_name ?? row.supplier_code, 70))
    .text("SupplierID", cut(row.supplier_code, 35));
  writeAddress(w, row.supplier_address ?? {}, row.supplier_country ?? company.address?.countryCode ?? "LT", "PostalAddress");
  w.close("Supplier");
}

/** MasterFiles/Assets (after the physical stock, before the owners). */
export function writeAssets(w: XmlWriter, company: SaftCompany, assets: SaftAssetRow[], to: string): void {
  if (!assets.length) return;
  w.open("Assets").newline();
  for (const a of assets) {
    const description = a.description ? `${a.name}: ${a.description}` : a.name;
    w.open("Asset").text("AssetID", cut(a.code, 35)).text("AccountID", a.asset_account).text("Description", cut(description, 256));
    if (a.supplier_code) {
      w.open("Suppliers");
      writeSupplier(w, a, company);
      w.close("Suppliers");
    }
    const disposed = a.disposal_date !== null && a.disposal_date <= to;
    w.text("DateOfAcquisition", a.acquisition_date)
      .text("StartUpDate", a.put_into_use_date)
      .open("Valuations")
      .open("Valuation")
      .text("AssetValuationType", "IS")
      .text("ValuationClass", cut(a.group_code, 18))
      .text("AccountID", a.asset_account)
      .text("AcquisitionAndProductionCostsBegin", money(new Decimal(a.cost_begin)))
      .text("AcquisitionAndProductionCostsEnd", money(new Decimal(a.cost_end)))
      .text("AssetLifeMonth", a.useful_life_months);
    if (disposed) w.text("AssetDisposal", money(new Decimal(a.acquisition_cost))).text("AssetDisposalDate", a.disposal_date!);
    w.text("BookValueBegin", money(new Decimal(a.cost_begin).minus(a.acc_begin)))
      .text("DepreciationMethod", "T")
      .text("DepreciationForPeriod", money(new Decimal(a.for_period)))
      .text("AccountID2", a.depreciation_account)
      .text("AccumulatedDepreciation", money(new Decimal(a.acc_end)))
      .text("BookValueEnd", money(new Decimal(a.cost_end).minus(a.acc_end)))
      .close("Valuation")
      .close("Valuations")
      .text("DepreciationDate", a.depreciation_start_date)
      .close("Asset")
      .newline();
  }
  w.close("Assets").newline();
}

const DESCRIPTION: Record<TransactionRow["type"], string> = {
  I: "Įsigijimas / Acquisition",
  NUS: "Nusidėvėjimas / Depreciation",
  NUR: "Nurašymas, perleidimas / Disposal",
};

function writeTransaction(w: XmlWriter, company: SaftCompany, t: TransactionRow): void {
  w.open("AssetTransaction")
    .text("AssetTransactionID", cut([t.code, t.type, t.month].filter(Boolean).join("-"), 70))
    .text("AssetID", cut(t.code, 35))
    .text("AssetTransactionType", t.type)
    .text("Description", t.month ? `${DESCRIPTION[t.type]} ${t.month}` : DESCRIPTION[t.type])
    .text("AssetTransactionDate", t.date);
  if (t.type === "I") writeSupplier(w, t, company);
  w.text("TransactionID", cut(t.tx ?? "", 70))
    .open("AssetTransactionValuations")
    .open("AssetTransactionValuation")
    .text("AssetValuationType", "IS")
    .text("AcquisitionAndProductionCostsOnTransaction", money(new Decimal(t.cost)))
    .text("BookValueOnTransaction", money(Decimal.max(new Decimal(t.book), 0)))
    .text("AssetTransactionAmount", money(new Decimal(t.amount)))
    .text("DebitCreditIndicator", t.dc)
    .close("AssetTransactionValuation")
    .close("AssetTransactionValuations")
    .close("AssetTransaction")
    .newline();
}

/** Writes every part of an AS file in order (`transactions`: countSaftAssetTransactions in the same transaction). */
export async function writeSaftAssets(
  db: Db,
  companyId: string,
  company: SaftCompany,
  request: SaftRequest,
  frame: SaftFrame,
  transactions: number,
  sizes: SaftSizes,
  onPart: (part: SaftPartWritten) => Promise<void>,
): Promise<void> {
  const parts = Math.max(1, Math.ceil(transactions / sizes.partSize));
  const sql = transactionsSql(companyId, request);
  const cursor = "saft_assets";
  await plainQuery(db, `declare ${cursor} no scroll cursor for ${sql.text}`, sql.values);
  for (let partNumber = 1; partNumber <= parts; partNumber++) {
    const count = partNumber < parts ? sizes.partSize : transactions - sizes.partSize * (parts - 1);
    const w = openPart(company, request, frame, partNumber);
    if (count) w.open("SourceDocuments").open("AssetTransactions").text("NumberOfAssetTransactions", count).newline();
    let written = 0;
    while (written < count) {
      const rows = await plainQuery<TransactionRow>(db, `fetch ${Math.min(sizes.fetchRows, count - written)} from ${cursor}`, []);
      if (!rows.length) break;
      for (const row of rows) writeTransaction(w, company, row);
      written += rows.length;
    }
    if (written !== count) throw new Error(`writeSaftAssets: part ${partNumber} wrote ${written} asset transactions, its plan ${count}`);
    if (count) w.close("AssetTransactions").close("SourceDocuments").newline();
    await onPart(closePart(w, company, request, frame, partNumber, written));
  }
  await plainQuery(db, `close ${cursor}`, []);
}
