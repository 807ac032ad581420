// SAF-T LT 2.01 movements of goods (data type `MG`): the master files of stock — UOMTable, MovementTypeTable, Products,
// PhysicalStock — and SourceDocuments/MovementOfGoods of shared/schemas/lt/SAFT_2_01.xsd, from the stock ledger
// (src/inventory: stock_operations, their stock_movements, FIFO stock_layers and what consumed them). Every stock
// operation of the range that moved goods is a StockMovement with a line per movement, in order (date, creation, id), `partSize`
// operations a part (SAFT_PART_SIZE), read through a cursor; the master files go in part 1.
//
// What each element holds (the XSD's annotations; what the XSD leaves open is marked "choice"):
//   Product               each item with a movement on or before `to`: GoodsServicesID PR (product) or PS (service),
//                         ValuationMethod FIFO, its unit as UOMBase and UOMStandard (factor 1: one unit per item).
//   PhysicalStockEntry    each (warehouse, item) with a movement on or before `to`: quantities and values at the day
//                         before `from` and at `to` (the sums of its movements); PhysicalStockAcquisitions the lots
//                         (FIFO layers) received by a purchase invoice into that warehouse and left at `to` (what
//                         was consumed after `to` counts as left): the supplier (registration code, else VAT code,
//                         and name), the invoice's number, date and accounting date, the quantity acquired and what
//                         is left of it. A lot that came by transfer from another warehouse is its first layer's
//                         (origin_layer_id, followed back): the same supplier and invoice, the date bought, the
//                         quantity that came here.
//   StockMovement         MovementReference its journal transaction as the GL file names it, else the operation's id
//                         without hyphens (32 characters); MovementType PARD a sale, PG a sale's credit note (goods
//                         back), PIR a purchase, PRG a purchase's credit note, VP a transfer, N a write-off, KT a
//                         stock-take, a receipt without an invoice or the migrated opening (MovementSubType says
//                         which: the operation's kind); DocumentReference the sales or purchase document's type and
//                         number; GLTransactionID the journal transaction.
//   Line                  each movement: the inventory.stock account, the journal transaction, the document's
//                         partner as CustomerID (a sale) or SupplierID (a purchase) — the other empty, as the XSD
//                         requires both (choice) — the item, the quantity and its FIFO value without sign, D for a
//                         movement in and K for one out.
//   NumberOfMovementLines, TotalQuantityReceived, TotalQuantityIssued (per part)
//                         the part's movements, and the quantities in and out.
import type { Db } from "../../db/connection.js";
import { plainQuery } from "../../db/prepared.js";
import { accountsForRules } from "../../ledger/index.js";
import { Decimal } from "../../shared/decimal.js";
import type { XmlWriter } from "../xml-writer.js";
import { type SaftCompany, type SaftPartWritten, type SaftRequest, type SaftSizes, cut, money, type SaftFrame, closePart, openPart } from "./saft.js";

/** The movement types the file uses (MovementTypeTable), by stock operation kind and the source document's type. */
const MOVEMENT_TYPES: readonly { type: string; description: string }[] = [
  { type: "PARD", description: "Pardavimas / Sale" },
  { type: "PG", description: "Pardavimo grąžinimas / Return of a sale" },
  { type: "PIR", description: "Pirkimas / Purchase" },
  { type: "PRG", description: "Pirkimo grąžinimas / Return of a purchase" },
  { type: "VP", description: "Vidinis perkėlimas / Internal transfer" },
  { type: "N", description: "Nurašymas / Write-off" },
  { type: "KT", description: "Kita: inventorizacija, pajamavimas be sąskaitos, perkelti likučiai / Other: stock-take, receipt, migrated" },
];

function movementTypeOf(kind: string, sourceType: string | null): string {
  switch (kind) {
    case "sale_invoice":
      return sourceType === "sale_credit_note" ? "PG" : "PARD";
    case "purchase_invoice":
      return sourceType === "purchase_credit_note" ? "PRG" : "PIR";
    case "transfer":
      return "VP";
    case "write_off":
      return "N";
  }
  return "KT";
}

interface ProductRow {
  code: string;
  name: string;
  type: string;
  unit: string;
}

interface AcquisitionRow {
  supplier_reg: string;
  supplier_name: string;
  date: string;
  invoice_no: string;
  invoice_date: string;
  posting_date: string;
  quantity: string;
  left_quantity: string;
  left_value: string;
}

interface StockEntryRow {
  warehouse: string;
  warehouse_id: string;
  item_code: string;
  unit: string;
  oq: string;
  ov: string;
  cq: string;
  cv: string;
}

export interface SaftStockData {
  products: ProductRow[];
  entries: StockEntryRow[];
  /** By `${warehouse_id}|${item_code}`. */
  acquisitions: Map<string, AcquisitionRow[]>;
}

/** The products, stock per warehouse and the purchase lots left at `to` (in the caller's transaction). */
export async function loadSaftStock(db: Db, companyId: string, range: { from: string; to: string }): Promise<SaftStockData> {
  const entries = await plainQuery<StockEntryRow>(
    db,
    `select w.code as warehouse, m.warehouse_id, m.item_code, coalesce(i.unit, '') as unit,
            coalesce(sum(m.quantity) filter (where m.date < $2::date), 0)::text as oq, coalesce(sum(m.value) filter (where m.date < $2::date), 0)::text as ov,
            sum(m.quantity)::text as cq, sum(m.value)::text as cv
       from stock_movements m
       join warehouses w on w.company_id = m.company_id and w.id = m.warehouse_id
       left join catalog_items i on i.company_id = m.company_id and i.code = m.item_code
      where m.company_id = $1 and m.date <= $3::date
      group by w.code, m.warehouse_id, m.item_code, i.unit
      order by w.code, m.item_code`,
    [companyId, range.from, range.to],
  );
  const products = await plainQuery<ProductRow>(
    db,
    `select i.code, i.name, i.type, i.unit from catalog_items i
      where i.company_id = $1 and exists (select 1 from stock_movements m where m.company_id = i.company_id and m.item_code = i.code and m.date <= $2::date)
      order by i.code`,
    [companyId, range.to],
  );
  const lots = await plainQuery<AcquisitionRow & { warehouse_id: string; item_code: string }>(
    db,
    `with recursive open_lots as (
       select l.id, l.warehouse_id, l.item_code, l.date, l.seq, l.quantity, l.origin_layer_id,
              l.quantity - coalesce(c.quantity, 0) as left_quantity, l.value - coalesce(c.value, 0) as left_value
         from stock_layers l
         left join lateral (
           select sum(sc.quantity) as quantity, sum(sc.value) as value
             from stock_consumptions sc join stock_movements cm on cm.company_id = sc.company_id and cm.id = sc.movement_id
            where sc.company_id = l.company_id and sc.layer_id = l.id and cm.date <= $2::date) c on true
        where l.company_id = $1 and l.date <= $2::date and l.quantity - coalesce(c.quantity, 0) > 0
     ),
     -- Each open lot's first layer: a lot moved by a transfer came from the layer it names (origin_layer_id).
     chain as (
       select o.id as lot_id, o.id as layer_id, o.origin_layer_id, 0 as depth from open_lots o
       union all
       select c.lot_id, l.id, l.origin_layer_id, c.depth + 1
         from chain c join stock_layers l on l.company_id = $1 and l.id = c.origin_layer_id
        where c.depth < 50
     )
     select o.warehouse_id, o.item_code, coalesce(pa.registration_code, pa.vat_code, '') as supplier_reg, coalesce(pa.name, p.partner_code) as supplier_name,
            first.date::text as date, p.document_number as invoice_no, p.document_date::text as invoice_date, p.accounting_date::text as posting_date,
            o.quantity::text as quantity, o.left_quantity::text as left_quantity, o.left_value::text as left_value
       from open_lots o
       join chain root on root.lot_id = o.id and root.origin_layer_id is null
       join stock_layers first on first.company_id = $1 and first.id = root.layer_id
       join stock_movements m on m.company_id = first.company_id and m.id = first.movement_id
       join stock_operations op on op.company_id = m.company_id and op.id = m.operation_id and op.kind = 'purchase_invoice' and op.source_type = 'purchase_invoice'
       join purchase_invoices p on p.company_id = op.company_id and p.id = op.source_id
       left join partners pa on pa.company_id = p.company_id and pa.code = p.partner_code
      order by o.warehouse_id, o.item_code, o.date, o.seq`,
    [companyId, range.to],
  );
  const acquisitions = new Map<string, AcquisitionRow[]>();
  for (const lot of lots) {
    const key = `${lot.warehouse_id}|${lot.item_code}`;
    acquisitions.set(key, [...(acquisitions.get(key) ?? []), lot]);
  }
  return { products, entries, acquisitions };
}

/** A part of the file: its operations, their movements, and the quantities in and out. */
export interface SaftStockPartPlan {
  operations: number;
  lines: number;
  received: string;
  issued: string;
}

const OPERATIONS_SQL = `select o.id, o.kind, o.source_type, o.source_id, o.date, o.created_at, o.journal_transaction_id
    from stock_operations o where o.company_id = $1 and o.date between $2::date and $3::date
     and exists (select 1 from stock_movements m where m.company_id = o.company_id and m.operation_id = o.id)`;

/** The parts of the range's stock operations, `partSize` each in file order (at least one part). */
export async function planSaftStockParts(db: Db, companyId: string, range: { from: string; to: string }, partSize: number): Promise<SaftStockPartPlan[]> {
  const rows = await plainQuery<SaftStockPartPlan>(
    db,
    `select count(distinct o.id)::int as operations, count(m.id)::int as lines,
            coalesce(sum(m.quantity) filter (where m.direction = 'in'), 0)::text as received,
            coalesce(-sum(m.quantity) filter (where m.direction = 'out'), 0)::text as issued
       from (select ops.*, (row_number() over (order by date, created_at, id) - 1) / $4::bigint as part from (${OPERATIONS_SQL}) ops) o
       left join stock_movements m on m.company_id = $1 and m.operation_id = o.id
      group by o.part order by o.part`,
    [companyId, range.from, range.to, partSize],
  );
  if (!rows.length) return [{ operations: 0, lines: 0, received: "0", issued: "0" }];
  return rows;
}

interface MovementRow {
  id: string;
  kind: string;
  source_type: string | null;
  date: string;
  tx: string | null;
  doc_no: string | null;
  partner_code: string | null;
  line_no: number | null;
  direction: "in" | "out" | null;
  item_code: string | null;
  unit: string | null;
  quantity: string | null;
  value: string | null;
}

function movementsSql(companyId: string, range: { from: string; to: string }) {
  return {
    text: `select o.id, o.kind, o.source_type, o.date::text as date, coalesce(t.number, t.id::text) as tx,
                  coalesce(s.number, p.document_number) as doc_no, coalesce(s.partner_code, p.partner_code) as partner_code,
                  m.line_no, m.direction, m.item_code, i.unit, m.quantity::text as quantity, m.value::text as value
             from (${OPERATIONS_SQL}) o
             left join journal_transactions t on t.company_id = $1 and t.id = o.journal_transaction_id
             left join sale_invoices s on s.company_id = $1 and s.id = (case when o.source_type like 'sale\\_%' then o.source_id end)
             left join purchase_invoices p on p.company_id = $1 and p.id = (case when o.source_type like 'purchase\\_%' then o.source_id end)
             left join stock_movements m on m.company_id = $1 and m.operation_id = o.id
             left join catalog_items i on i.company_id = $1 and i.code = m.item_code
            order by o.date, o.created_at, o.id, m.line_no`,
    values: [companyId, range.from, range.to],
  };
}

/** UOMTable, MovementTypeTable, Products and PhysicalStock (in the XSD's order, after the tax table). */
export function writeStockMasters(w: XmlWriter, stock: SaftStockData): void {
  const units = [...new Set(stock.products.map((p) => p.unit).filter(Boolean))].sort();
  if (units.length) {
    w.open("UOMTable");
    for (const unit of units) w.open("UOMTableEntry").text("UnitOfMeasure", cut(unit, 24)).text("Description", cut(unit, 256)).close("UOMTableEntry");
    w.close("UOMTable").newline();
  }
  if (!stock.entries.length) return; // books without stock: no movement types, products or stock to describe
  w.open("MovementTypeTable");
  for (const t of MOVEMENT_TYPES)
    w.open("MovementTypeTableEntry").text("MovementType", t.type).text("Description", t.description).close("MovementTypeTableEntry");
  w.close("MovementTypeTable").newline();
  if (stock.products.length) {
    w.open("Products").newline();
    for (const p of stock.products) {
      w.open("Product")
        .text("ProductCode", cut(p.code, 70))
        .text("GoodsServicesID", p.type === "service" ? "PS" : "PR")
        .text("Description", cut(p.name, 256))
        .text("ValuationMethod", "FIFO")
        .text("UOMBase", cut(p.unit, 24))
        .open("UOMS")
        .open("UOM")
        .text("UOMStandard", cut(p.unit, 24))
        .text("UOMToUOMBaseConversionFactor", 1)
        .close("UOM")
        .close("UOMS")
        .close("Product")
        .newline();
    }
    w.close("Products").newline();
  }
  if (stock.entries.length) {
    w.open("PhysicalStock").newline();
    for (const e of stock.entries) {
      w.open("PhysicalStockEntry").text("WarehouseID", cut(e.warehouse, 35)).text("ProductCode", cut(e.item_code, 70));
      if (e.unit) w.text("UOMPhysicalStock", cut(e.unit, 24)).text("UOMToUOMBaseConversionFactor", 1);
      w.text("OpeningStockQuantity", new Decimal(e.oq).toFixed())
        .text("OpeningStockValue", money(new Decimal(e.ov)))
        .text("ClosingStockQuantity", new Decimal(e.cq).toFixed())
        .text("ClosingStockValue", money(new Decimal(e.cv)));
      const lots = stock.acquisitions.get(`${e.warehouse_id}|${e.item_code}`) ?? [];
      if (lots.length) {
        w.open("PhysicalStockAcquisitions");
        for (const lot of lots) {
          w.open("PhysicalStockAcquisition")
            .open("Supplier")
            .text("RegistrationNumber", cut(lot.supplier_reg, 35))
            .text("Name", cut(lot.supplier_name, 70))
            .close("Supplier")
            .text("DateOfAcquisition", lot.date)
            .text("InvoiceNo", cut(lot.invoice_no, 70))
            .text("InvoiceDate", lot.invoice_date)
            .text("GLPostingDate", lot.posting_date)
            .text("AcquiredQuantity", new Decimal(lot.quantity).toFixed())
            .text("StockRemainderQuantity", new Decimal(lot.left_quantity).toFixed())
            .text("StockRemainderAmount", money(Decimal.max(new Decimal(lot.left_value), 0)))
            .close("PhysicalStockAcquisition");
        }
        w.close("PhysicalStockAcquisitions");
      }
      w.close("PhysicalStockEntry").newline();
    }
    w.close("PhysicalStock").newline();
  }
}

interface Operation {
  head: MovementRow;
  lines: MovementRow[];
}

function writeOperation(w: XmlWriter, op: Operation, stockAccount: string): void {
  const h = op.head;
  const type = movementTypeOf(h.kind, h.source_type);
  w.open("StockMovement")
    .text("MovementReference", cut(h.tx ?? h.id.replaceAll("-", ""), 35))
    .text("MovementDate", h.date)
    .text("MovementPostingDate", h.date)
    .text("MovementType", type);
  if (h.doc_no && h.source_type)
    w.open("DocumentReference").text("DocumentType", cut(h.source_type, 18)).text("DocumentNumber", cut(h.doc_no, 35)).close("DocumentReference");
  w.open("Lines");
  const sale = h.kind === "sale_invoice";
  const purchase = h.kind === "purchase_invoice";
  for (const line of op.lines) {
    w.open("Line")
      .text("LineNumber", line.line_no!)
      .text("AccountID", stockAccount)
      .text("TransactionID", cut(h.tx ?? "", 70))
      .text("CustomerID", sale ? cut(h.partner_code ?? "", 35) : "")
      .text("SupplierID", purchase ? cut(h.partner_code ?? "", 35) : "")
      .text("ProductCode", cut(line.item_code!, 70))
      .text("Quantity", new Decimal(line.quantity!).abs().toFixed());
    if (line.unit) w.text("UnitOfMeasure", cut(line.unit, 24)).text("UOMToUOMPhysicalStockConversionFactor", 1);
    w.text("BookValue", money(new Decimal(line.value!).abs()))
      .text("MovementSubType", h.kind)
      .text("DebitCreditIndicator", line.direction === "in" ? "D" : "K")
      .close("Line");
  }
  w.close("Lines");
  if (h.tx) w.text("GLTransactionID", cut(h.tx, 70));
  w.close("StockMovement").newline();
}

/** Writes every part of a MG file in order (`plan`: planSaftStockParts in the same transaction), each to `onPart`. */
export async function writeSaftStock(
  db: Db,
  companyId: string,
  company: SaftCompany,
  request: SaftRequest,
  frame: SaftFrame,
  plan: SaftStockPartPlan[],
  sizes: SaftSizes,
  onPart: (part: SaftPartWritten) => Promise<void>,
): Promise<void> {
  const [stockAccount] = await accountsForRules(db, companyId, ["inventory.stock"]);
  const parts = plan.length;
  const sql = movementsSql(companyId, request);
  const cursor = "saft_stock";
  await plainQuery(db, `declare ${cursor} no scroll cursor for ${sql.text}`, sql.values);
  let pending: Operation | undefined;
  let exhausted = false;
  /** The next whole operation from the cursor (its rows are consecutive), or undefined at the end. */
  const buffer: MovementRow[] = [];
  const next = async (): Promise<Operation | undefined> => {
    for (;;) {
      if (buffer.length) {
        const row = buffer.shift()!;
        if (pending && pending.head.id === row.id) {
          if (row.line_no !== null) pending.lines.push(row);
          continue;
        }
        const done = pending;
        pending = { head: row, lines: row.line_no !== null ? [row] : [] };
        if (done) return done;
        continue;
      }
      if (exhausted) {
        const done = pending;
        pending = undefined;
        return done;
      }
      const rows = await plainQuery<MovementRow>(db, `fetch ${sizes.fetchRows} from ${cursor}`, []);
      if (rows.length < sizes.fetchRows) exhausted = true;
      buffer.push(...rows);
    }
  };
  for (let partNumber = 1; partNumber <= parts; partNumber++) {
    const planned = plan[partNumber - 1];
    const w = openPart(company, request, frame, partNumber);
    if (planned.operations) {
      w.open("SourceDocuments")
        .open("MovementOfGoods")
        .text("NumberOfMovementLines", planned.lines)
        .text("TotalQuantityReceived", new Decimal(planned.received).toFixed())
        .text("TotalQuantityIssued", new Decimal(planned.issued).toFixed())
        .newline();
    }
    let operations = 0;
    let lines = 0;
    while (operations < planned.operations) {
      const op = await next();
      if (!op) break;
      writeOperation(w, op, stockAccount);
      operations++;
      lines += op.lines.length;
    }
    if (operations !== planned.operations || lines !== planned.lines) {
      throw new Error(`writeSaftStock: part ${partNumber} wrote ${operations} operations (${lines} lines), its plan ${planned.operations} (${planned.lines})`);
    }
    if (planned.operations) w.close("MovementOfGoods").close("SourceDocuments").newline();
    await onPart(closePart(w, company, request, frame, partNumber, operations));
  }
  await plainQuery(db, `close ${cursor}`, []);
}
