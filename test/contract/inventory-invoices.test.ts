// Invoices that move stock: purchase invoices whose lines name a warehouse receive their goods (with their lot or
// serials) at the line's net EUR cost and debit 2040 instead of an expense, the receipt linked to the invoice's
// journal transaction; issuing a sales invoice takes its product lines FIFO (within a named lot, or exactly the named
// serials) and its own journal transaction carries their cost (debit 6000, credit 2040); a sales credit note brings
// returned goods back at the cost the invoice took them at (debit 2040, credit 6000). Exact entries, stored rows,
// refusals that leave nothing behind, and two concurrent sales of the last unit. One FIFO rule for both ways of taking
// (a sale's one statement, a write-off's or transfer's line by line): the same parts to the cent, and a take of one
// unit that does not lock an item's later layers.
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import pg from "pg";
import { Decimal } from "decimal.js";
import type { RequestBody, ResponseData } from "../../sdk/typescript/src/index.js";
import { expectApiError, invalid, settle, type Settled } from "../support/expect.js";
import { startHarness, type Harness } from "../support/harness.js";
import { accountBalance, ITEMS, journalLines, layerRows, layersValue, WAREHOUSES } from "../support/inventory.js";
import { world, type World } from "../support/world.js";
import { waitForLockWaiters } from "../support/db-waits.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

/** stockWorld's company with a supplier TIEKEJAS (30 days) and a customer PIRKEJAS (14 days). */
const invoicesWorld = (options: { warehouses?: boolean } = {}) =>
  world(h, {
    // A VAT payer: a company without a VAT code issues no VAT (issue 24).
    company: { vatCode: "LT100001919017" },
    items: ITEMS,
    warehouses: options.warehouses === false ? [] : WAREHOUSES,
    partners: [
      { name: "Tiekėjas UAB", code: "TIEKEJAS", isCustomer: false, isSupplier: true, paymentTermDays: 30 },
      { name: "Pirkėjas UAB", code: "PIRKEJAS", paymentTermDays: 14 },
    ],
  });

let docSeq = 0;
const purchase = async (w: World, lines: RequestBody<"purchases_invoices_create">["lines"], over: Record<string, unknown> = {}) => {
  const d = await w.api.purchases.invoices.create({ partnerCode: "TIEKEJAS", documentNumber: `PR-${++docSeq}`, documentDate: "2026-03-02", lines, ...over });
  return w.api.purchases.invoices.register({ id: d.id });
};
const saleDraft = (w: World, lines: RequestBody<"sales_invoices_create">["lines"], over: Record<string, unknown> = {}) =>
  w.api.sales.invoices.create({ partnerCode: "PIRKEJAS", issueDate: "2026-03-10", lines, ...over });
const receive = (w: World, lines: RequestBody<"inventory_stock_receive">["lines"], over: Record<string, unknown> = {}) =>
  w.api.inventory.stock.receive({ warehouseCode: "CENTR", date: "2026-03-01", counterAccountCode: "4430", lines, ...over });
/** The stock operation of a sales invoice. */
const saleOperation = async (w: World, invoiceId: string) =>
  h.db("stock_operations").where({ company_id: w.companyId, kind: "sale_invoice", source_id: invoiceId }).first();

describe("purchase invoices receive stock", () => {
  test("lines naming a warehouse debit 2040 at their net and start layers at the net EUR cost; other lines stay expenses", async () => {
    const w = await invoicesWorld();
    const inv = await purchase(w, [
      { itemCode: "PREKE", quantity: "3", unitPriceExclVat: "3.3333", vatRatePercent: "21", warehouseCode: "CENTR" },
      { itemCode: "PREKE", quantity: "2", unitPriceExclVat: "5", vatRatePercent: "21", warehouseCode: "FILIAL" },
      { description: "Transportas", quantity: "1", unitPriceExclVat: "20", vatRatePercent: "21" },
    ]);
    expect(inv.lines.map((l: any) => l.warehouseCode)).toEqual(["CENTR", "FILIAL", null]);
    // Nets 10.00 + 10.00 + 20.00 = 40.00, VAT 8.40, gross 48.40.
    expect(await journalLines(h, w.companyId, inv.journalTransactionId)).toEqual([
      ["4430", "0.00", "48.40"],
      ["2040", "20.00", "0.00"],
      ["6312", "20.00", "0.00"],
      ["2441", "8.40", "0.00"],
    ]);
    expect(await layerRows(h, w.companyId)).toEqual([
      ["PREKE", "CENTR", "3", "3", "3.333333", "10.00", "10.00", null, null],
      ["PREKE", "FILIAL", "2", "2", "5", "10.00", "10.00", null, null],
    ]);
    // The receipt names the invoice's journal transaction, and so does its event.
    const [op] = await h.db("stock_operations").where({ company_id: w.companyId });
    expect([op.kind, op.source_type, op.source_id, op.journal_transaction_id, op.date]).toEqual([
      "purchase_invoice",
      "purchase_invoice",
      inv.id,
      inv.journalTransactionId,
      "2026-03-02",
    ]);
    const events = await h.db("webhook_events").where({ company_id: w.companyId, event_type: "inventory.stock_moved" });
    expect(events.map((e) => [e.data.id, e.data.kind, e.data.journalTransactionId, e.data.movements.length])).toEqual([
      [op.id, "purchase_invoice", inv.journalTransactionId, 2],
    ]);
    expect(await accountBalance(h, w.companyId, "2040")).toBe(await layersValue(h, w.companyId));
  });

  test("in a foreign currency the layers share the EUR amount debited to 2040, to the cent", async () => {
    const w = await invoicesWorld();
    await w.api.reference.exchangeRates.set({ currency: "USD", date: "2026-03-02", rate: "1.0837" });
    const inv = await purchase(
      w,
      [
        { itemCode: "PREKE", quantity: "1", unitPriceExclVat: "333.33", vatRatePercent: "21", warehouseCode: "CENTR" },
        { itemCode: "PREKE", quantity: "7", unitPriceExclVat: "0.99", vatRatePercent: "21", warehouseCode: "CENTR" },
      ],
      { currency: "USD" },
    );
    const entries = await journalLines(h, w.companyId, inv.journalTransactionId);
    const stockDebit = entries!.find((e) => e[0] === "2040")![1];
    // 340.26 USD / 1.0837 = 313.98 EUR, shared by net: 333.33 -> 307.59, 6.93 -> 6.39.
    expect(stockDebit).toBe("313.98");
    expect((await layerRows(h, w.companyId)).map((l) => [l[2], l[4], l[5]])).toEqual([
      ["1", "307.59", "307.59"],
      ["7", "0.912857", "6.39"],
    ]);
    expect(await layersValue(h, w.companyId)).toBe("313.98");
  });

  test.each([
    {
      name: "a service with a warehouse",
      line: { itemCode: "KONS", quantity: "1", unitPriceExclVat: "5", warehouseCode: "CENTR" },
      key: "purchase_invoice.warehouse_without_product",
      field: "lines[0].warehouseCode",
    },
    {
      name: "a line without an item",
      line: { description: "X", quantity: "1", unitPriceExclVat: "5", vatRatePercent: "21", warehouseCode: "CENTR" },
      key: "purchase_invoice.warehouse_without_product",
      field: "lines[0].warehouseCode",
    },
    {
      name: "an unknown warehouse",
      line: { itemCode: "PREKE", quantity: "1", unitPriceExclVat: "5", warehouseCode: "NERA" },
      key: "purchase_invoice.warehouse_unknown",
      field: "lines[0].warehouseCode",
    },
    {
      name: "an expense account too",
      line: { itemCode: "PREKE", quantity: "1", unitPriceExclVat: "5", warehouseCode: "CENTR", expenseAccountCode: "6312" },
      key: "purchase_invoice.warehouse_and_account",
      field: "lines[0].warehouseCode",
    },
    {
      name: "a lot-tracked item without its lot",
      line: { itemCode: "PIENAS", quantity: "1", unitPriceExclVat: "5", warehouseCode: "CENTR" },
      key: "purchase_invoice.tracking_invalid",
      field: "lines[0].lotNumber",
    },
    {
      name: "a serial-tracked item without serials",
      line: { itemCode: "TELEF", quantity: "2", unitPriceExclVat: "5", warehouseCode: "CENTR" },
      key: "purchase_invoice.tracking_invalid",
      field: "lines[0].serials",
    },
    {
      name: "two serials for three units",
      line: { itemCode: "TELEF", quantity: "3", unitPriceExclVat: "5", warehouseCode: "CENTR", serials: ["S1", "S2"] },
      key: "purchase_invoice.tracking_invalid",
      field: "lines[0].serials",
    },
    {
      name: "a repeated serial",
      line: { itemCode: "TELEF", quantity: "2", unitPriceExclVat: "5", warehouseCode: "CENTR", serials: ["S1", "S1"] },
      key: "purchase_invoice.tracking_invalid",
      field: "lines[0].serials",
    },
    {
      name: "a lot for an item not tracked by lot",
      line: { itemCode: "PREKE", quantity: "1", unitPriceExclVat: "5", warehouseCode: "CENTR", lotNumber: "L1" },
      key: "purchase_invoice.tracking_invalid",
      field: "lines[0].lotNumber",
    },
    {
      name: "a lot on a line not received into stock",
      line: { itemCode: "PIENAS", quantity: "1", unitPriceExclVat: "5", lotNumber: "L1" },
      key: "purchase_invoice.tracking_invalid",
      field: "lines[0].lotNumber",
    },
  ])("a draft with $name is refused (422 $key)", async ({ line, key, field }) => {
    const w = await invoicesWorld();
    const error = await expectApiError(
      w.api.purchases.invoices.create({ partnerCode: "TIEKEJAS", documentNumber: "X-1", documentDate: "2026-03-02", lines: [line] }),
      422,
      "unprocessable",
      key,
    );
    expect(Object.keys(error.fieldErrors ?? {})).toEqual([field]);
    expect(await h.db("purchase_invoices").where({ company_id: w.companyId })).toEqual([]);
  });

  test("five decimals of quantity -> 400 naming the field (invoice lines carry 4, as stock does)", async () => {
    const w = await invoicesWorld();
    const error = await expectApiError(
      w.api.purchases.invoices.create(
        invalid({
          partnerCode: "TIEKEJAS",
          documentNumber: "X-1",
          documentDate: "2026-03-02",
          lines: [{ itemCode: "PREKE", quantity: "1.00001", unitPriceExclVat: "5", warehouseCode: "CENTR" }],
        }),
      ),
      400,
      "validation",
    );
    expect(Object.keys(error.fieldErrors ?? {})).toEqual(["lines[0].quantity"]);
  });

  test("a lot-tracked line receives its lot; a serial-tracked line one layer per serial, the line's value shared to the cent", async () => {
    const w = await invoicesWorld();
    const inv = await purchase(w, [
      { itemCode: "PIENAS", quantity: "2.5", unitPriceExclVat: "1.2", vatRatePercent: "21", warehouseCode: "CENTR", lotNumber: "L-2026-03" },
      { itemCode: "TELEF", quantity: "3", unitPriceExclVat: "33.3333", vatRatePercent: "21", warehouseCode: "FILIAL", serials: ["SN-1", "SN-2", "SN-3"] },
    ]);
    expect(inv.lines.map((l: any) => [l.lotNumber, l.serials])).toEqual([
      ["L-2026-03", null],
      [null, ["SN-1", "SN-2", "SN-3"]],
    ]);
    // Nets 3.00 and 100.00 (3 × 33.3333 = 99.9999): the three serials share 100.00 as 33.34 + 33.33 + 33.33.
    expect(await layerRows(h, w.companyId)).toEqual([
      ["PIENAS", "CENTR", "2.5", "2.5", "1.2", "3.00", "3.00", "L-2026-03", null],
      ["TELEF", "FILIAL", "1", "1", "33.34", "33.34", "33.34", null, "SN-1"],
      ["TELEF", "FILIAL", "1", "1", "33.33", "33.33", "33.33", null, "SN-2"],
      ["TELEF", "FILIAL", "1", "1", "33.33", "33.33", "33.33", null, "SN-3"],
    ]);
    expect(await accountBalance(h, w.companyId, "2040")).toBe("103.00");
    expect(await layersValue(h, w.companyId)).toBe("103.00");
    // A serial already in stock: 409, nothing registered.
    const again = await w.api.purchases.invoices.create({
      partnerCode: "TIEKEJAS",
      documentNumber: "SN-AGAIN",
      documentDate: "2026-03-03",
      lines: [{ itemCode: "TELEF", quantity: "1", unitPriceExclVat: "30", vatRatePercent: "21", warehouseCode: "CENTR", serials: ["SN-2"] }],
    });
    await expectApiError(w.api.purchases.invoices.register({ id: again.id }), 409, "conflict", "inventory.serial_in_stock");
    expect((await h.db("purchase_invoices").where({ id: again.id }).first()).status).toBe("draft");
  });
});

describe("sales invoices issue stock", () => {
  test("issuing takes product lines FIFO (line warehouse, else the default); the invoice's posting carries cost of sales 6000 / 2040", async () => {
    const w = await invoicesWorld();
    await receive(w, [{ itemCode: "PREKE", quantity: "2", unitCost: "4" }], { date: "2026-03-01" });
    await receive(w, [{ itemCode: "PREKE", quantity: "5", unitCost: "0.333333" }], { date: "2026-03-02" });
    await receive(w, [{ itemCode: "PREKE", quantity: "1", unitCost: "9" }], { warehouseCode: "FILIAL" });
    const d = await saleDraft(w, [
      { itemCode: "PREKE", quantity: "3" },
      { itemCode: "KONS", quantity: "1" },
      { itemCode: "PREKE", quantity: "1", warehouseCode: "FILIAL" },
    ]);
    expect(d.lines.map((l: any) => l.warehouseCode)).toEqual([null, null, "FILIAL"]);
    const inv = await w.api.sales.invoices.issue({ id: d.id });
    // Receivable, revenue, VAT (nets 30 + 60 + 10 = 100, VAT 21), then the cost of the goods taken:
    // CENTR 2 x 4.00 + 1 x 0.33 = 8.33, FILIAL 1 x 9.00.
    expect(await journalLines(h, w.companyId, inv.journalTransactionId)).toEqual([
      ["2410", "121.00", "0.00"],
      ["5000", "0.00", "100.00"],
      ["4492", "0.00", "21.00"],
      ["6000", "17.33", "0.00"],
      ["2040", "0.00", "17.33"],
    ]);
    expect(await h.db("journal_transactions").where({ company_id: w.companyId, document_type: "sale_invoice" })).toHaveLength(1);
    const op = await saleOperation(w, inv.id);
    expect([op.source_type, op.journal_transaction_id, op.date]).toEqual(["sale_invoice", inv.journalTransactionId, "2026-03-10"]);
    const [event] = await h.db("webhook_events").where({ company_id: w.companyId, event_type: "inventory.stock_moved" }).whereRaw("data->>'id' = ?", [op.id]);
    expect([event.data.kind, event.data.journalTransactionId, event.data.movements.length]).toEqual(["sale_invoice", inv.journalTransactionId, 2]);
    const movements = await h.db("stock_movements").where({ company_id: w.companyId, operation_id: op.id }).orderBy("line_no");
    expect(movements.map((m) => [m.line_no, m.item_code, m.quantity, m.value])).toEqual([
      [1, "PREKE", "-3.0000", "-8.33"],
      [3, "PREKE", "-1.0000", "-9.00"],
    ]);
    expect(await layerRows(h, w.companyId)).toEqual([
      ["PREKE", "CENTR", "2", "0", "4", "8.00", "0.00", null, null],
      ["PREKE", "CENTR", "5", "4", "0.333333", "1.67", "1.34", null, null],
      ["PREKE", "FILIAL", "1", "0", "9", "9.00", "0.00", null, null],
    ]);
    expect(await accountBalance(h, w.companyId, "2040")).toBe(await layersValue(h, w.companyId));
    expect(await accountBalance(h, w.companyId, "6000")).toBe("17.33");
  });

  test("two lines of one item share a layer: the second takes what the first left of it, then the next layer; each layer lowered once by both", async () => {
    const w = await invoicesWorld();
    await receive(w, [{ itemCode: "PREKE", quantity: "3", unitCost: "2" }], { date: "2026-03-01" });
    await receive(w, [{ itemCode: "PREKE", quantity: "4", unitCost: "5" }], { date: "2026-03-02" });
    // Line 1 takes 2 of the first layer (3 x 2.00); line 2 takes its last unit, then 1.5 of the second (4 x 5.00).
    const d = await saleDraft(w, [
      { itemCode: "PREKE", quantity: "2" },
      { itemCode: "PREKE", quantity: "2.5" },
    ]);
    const inv = await w.api.sales.invoices.issue({ id: d.id });
    const op = await saleOperation(w, inv.id);
    const movements = await h.db("stock_movements").where({ company_id: w.companyId, operation_id: op.id }).orderBy("line_no");
    expect(movements.map((m) => [m.line_no, m.quantity, m.value])).toEqual([
      [1, "-2.0000", "-4.00"],
      [2, "-2.5000", "-9.50"],
    ]);
    const parts = await h
      .db("stock_consumptions as c")
      .join("stock_movements as m", (j) => j.on("m.company_id", "c.company_id").andOn("m.id", "c.movement_id"))
      .join("stock_layers as l", (j) => j.on("l.company_id", "c.company_id").andOn("l.id", "c.layer_id"))
      .where("m.operation_id", op.id)
      .orderBy(["m.line_no", "l.seq"])
      .select("m.line_no", "l.unit_cost", "c.quantity", "c.value");
    expect(parts.map((c) => [c.line_no, c.unit_cost, c.quantity, c.value])).toEqual([
      [1, "2.000000", "2.0000", "4.00"],
      [2, "2.000000", "1.0000", "2.00"],
      [2, "5.000000", "1.5000", "7.50"],
    ]);
    expect(await layerRows(h, w.companyId)).toEqual([
      ["PREKE", "CENTR", "3", "0", "2", "6.00", "0.00", null, null],
      ["PREKE", "CENTR", "4", "2.5", "5", "20.00", "12.50", null, null],
    ]);
    expect(await journalLines(h, w.companyId, inv.journalTransactionId)).toContainEqual(["2040", "0.00", "13.50"]);
    expect(await accountBalance(h, w.companyId, "2040")).toBe(await layersValue(h, w.companyId));
  });

  test("not enough stock: 422 naming item, warehouse and what is available; the invoice stays a draft, no number is taken, nothing is posted", async () => {
    const w = await invoicesWorld();
    await receive(w, [{ itemCode: "PREKE", quantity: "1.5", unitCost: "4" }]);
    const before = { layers: await layerRows(h, w.companyId), journal: await h.db("journal_transactions").where({ company_id: w.companyId }) };
    const d = await saleDraft(w, [
      { itemCode: "KONS", quantity: "1" },
      { itemCode: "PREKE", quantity: "2" },
    ]);
    const error = await expectApiError(w.api.sales.invoices.issue({ id: d.id }), 422, "unprocessable", "inventory.insufficient_stock");
    expect(error.params).toEqual({ itemCode: "PREKE", warehouseCode: "CENTR", available: "1.5", requested: "2" });
    expect(Object.keys(error.fieldErrors ?? {})).toEqual(["lines[1].quantity"]);
    expect((await h.db("sale_invoices").where({ company_id: w.companyId, id: d.id }).first()).status).toBe("draft");
    expect(await h.db("number_series").where({ company_id: w.companyId, document_type: "sale_invoice" })).toEqual([]);
    expect({ layers: await layerRows(h, w.companyId), journal: await h.db("journal_transactions").where({ company_id: w.companyId }) }).toEqual(before);
    expect(await h.db("stock_operations").where({ company_id: w.companyId, kind: "sale_invoice" })).toEqual([]);
  });

  test("a credit note moves no stock; a company without warehouses keeps none; lot items are sold FIFO across lots", async () => {
    const w = await invoicesWorld();
    await receive(w, [{ itemCode: "PIENAS", quantity: "1", unitCost: "1", lotNumber: "A" }], { date: "2026-03-01" });
    await receive(w, [{ itemCode: "PIENAS", quantity: "1", unitCost: "2", lotNumber: "B" }], { date: "2026-03-02" });
    const inv = await w.api.sales.invoices.issue({ id: (await saleDraft(w, [{ itemCode: "PIENAS", quantity: "1.5", unitPriceExclVat: "5" }])).id });
    expect((await journalLines(h, w.companyId, inv.journalTransactionId))!.slice(-2)).toEqual([
      ["6000", "2.00", "0.00"],
      ["2040", "0.00", "2.00"],
    ]);
    expect((await saleOperation(w, inv.id)).journal_transaction_id).toBe(inv.journalTransactionId);
    const layersAfterSale = await layerRows(h, w.companyId);
    await w.api.sales.invoices.issue({
      id: (await saleDraft(w, [{ itemCode: "PIENAS", quantity: "1", unitPriceExclVat: "5" }], { type: "credit_note", creditedInvoiceId: inv.id })).id,
    });
    expect(await layerRows(h, w.companyId)).toEqual(layersAfterSale);

    const bare = await invoicesWorld({ warehouses: false });
    const sold = await bare.api.sales.invoices.issue({ id: (await saleDraft(bare, [{ itemCode: "PREKE", quantity: "1" }])).id });
    expect(sold.status).toBe("issued");
    expect(await h.db("stock_operations").where({ company_id: bare.companyId })).toEqual([]);
    expect(await h.db("journal_transactions").where({ company_id: bare.companyId })).toHaveLength(1);
  });

  test("two sales of the last unit issued at once: one is issued, the other is 422 and stays a draft", async () => {
    const w = await invoicesWorld();
    await receive(w, [{ itemCode: "PREKE", quantity: "1", unitCost: "4" }]);
    const drafts = [await saleDraft(w, [{ itemCode: "PREKE", quantity: "1" }]), await saleDraft(w, [{ itemCode: "PREKE", quantity: "1" }])];
    const blocker = new pg.Client({ connectionString: h.connectionString });
    await blocker.connect();
    let requests: Promise<Settled<unknown>>[];
    try {
      await blocker.query("begin");
      await blocker.query("select 1 from stock_layers where company_id = $1 for update", [w.companyId]);
      requests = drafts.map((d) => settle(w.api.sales.invoices.issue({ id: d.id })));
      await waitForLockWaiters(h.db, { count: 2, excludePid: (blocker as any).processID, what: "the two issues waiting on the layer" });
    } finally {
      await blocker.query("commit");
      await blocker.end();
    }
    const results = await Promise.all(requests);
    expect(results.map((r) => r.status).sort()).toEqual([200, 422]);
    const refused = results.find((r) => r.status === 422)!;
    expect([refused.error?.code, refused.error?.key]).toEqual(["unprocessable", "inventory.insufficient_stock"]);
    const statuses = (await h.db("sale_invoices").where({ company_id: w.companyId }).orderBy("status")).map((r) => [r.status, r.number]);
    expect(statuses).toEqual([
      ["draft", null],
      ["issued", expect.stringMatching(/^SF-1$/)],
    ]);
    expect(await layerRows(h, w.companyId)).toEqual([["PREKE", "CENTR", "1", "0", "4", "4.00", "0.00", null, null]]);
    expect(await accountBalance(h, w.companyId, "2040")).toBe("0.00");
    expect(await accountBalance(h, w.companyId, "6000")).toBe("4.00");
  });

  test("purchase, then sale: the stock account follows the layers; movements list both", async () => {
    const w = await invoicesWorld();
    await purchase(w, [{ itemCode: "PREKE", quantity: "3", unitPriceExclVat: "3.3333", vatRatePercent: "21", warehouseCode: "CENTR" }]);
    await w.api.sales.invoices.issue({ id: (await saleDraft(w, [{ itemCode: "PREKE", quantity: "1" }])).id });
    await w.api.sales.invoices.issue({ id: (await saleDraft(w, [{ itemCode: "PREKE", quantity: "1" }])).id });
    await w.api.sales.invoices.issue({ id: (await saleDraft(w, [{ itemCode: "PREKE", quantity: "1" }])).id });
    expect(await accountBalance(h, w.companyId, "2040")).toBe("0.00");
    expect(await accountBalance(h, w.companyId, "6000")).toBe("10.00");
    const list = await w.api.inventory.stock.movements.list({
      sort: [
        { field: "date", dir: "asc" },
        { field: "createdAt", dir: "asc" },
      ],
      totals: ["quantity", "value"],
    });
    expect(list.rows.map((m: any) => [m.kind, m.quantity, m.value])).toEqual([
      ["purchase_invoice", "3", "10.00"],
      ["sale_invoice", "-1", "-3.33"],
      ["sale_invoice", "-1", "-3.33"],
      ["sale_invoice", "-1", "-3.34"],
    ]);
    expect(list.totals).toEqual({ quantity: "0", value: "0.00" });
  });
});

describe("sales invoice lines name a lot or serials", () => {
  test("a line naming a lot takes FIFO within that lot only; more than the lot holds is 422 naming the lot", async () => {
    const w = await invoicesWorld();
    await receive(w, [{ itemCode: "PIENAS", quantity: "1", unitCost: "1", lotNumber: "A" }], { date: "2026-03-01" });
    await receive(w, [{ itemCode: "PIENAS", quantity: "2", unitCost: "2", lotNumber: "B" }], { date: "2026-03-02" });
    const tooMuch = await saleDraft(w, [{ itemCode: "PIENAS", quantity: "2.5", unitPriceExclVat: "5", lotNumber: "B" }]);
    const error = await expectApiError(w.api.sales.invoices.issue({ id: tooMuch.id }), 422, "unprocessable", "inventory.insufficient_stock");
    expect(error.params).toEqual({ itemCode: "PIENAS", warehouseCode: "CENTR", available: "2", requested: "2.5", lotNumber: "B" });
    const inv = await w.api.sales.invoices.issue({
      id: (await saleDraft(w, [{ itemCode: "PIENAS", quantity: "1.5", unitPriceExclVat: "5", lotNumber: "B" }])).id,
    });
    expect(inv.lines[0]).toMatchObject({ lotNumber: "B", serials: null });
    expect((await journalLines(h, w.companyId, inv.journalTransactionId))!.slice(-2)).toEqual([
      ["6000", "3.00", "0.00"],
      ["2040", "0.00", "3.00"],
    ]);
    expect(await layerRows(h, w.companyId)).toEqual([
      ["PIENAS", "CENTR", "1", "1", "1", "1.00", "1.00", "A", null],
      ["PIENAS", "CENTR", "2", "0.5", "2", "4.00", "1.00", "B", null],
    ]);
  });

  test("a line naming serials takes exactly those; one not in stock is 422 naming the line's serials; nothing taken", async () => {
    const w = await invoicesWorld();
    for (const [serial, cost, date] of [
      ["S1", "10", "2026-03-01"],
      ["S2", "20", "2026-03-02"],
      ["S3", "30", "2026-03-03"],
    ]) {
      await receive(w, [{ itemCode: "TELEF", quantity: "1", unitCost: cost, serials: [serial] }], { date });
    }
    const missing = await saleDraft(w, [{ itemCode: "TELEF", quantity: "2", unitPriceExclVat: "100", serials: ["S3", "S9"] }]);
    const error = await expectApiError(w.api.sales.invoices.issue({ id: missing.id }), 422, "unprocessable", "inventory.serial_not_in_stock");
    expect(Object.keys(error.fieldErrors ?? {})).toEqual(["lines[0].serials"]);
    expect(await h.db("stock_operations").where({ company_id: w.companyId, kind: "sale_invoice" })).toEqual([]);
    const inv = await w.api.sales.invoices.issue({
      id: (await saleDraft(w, [{ itemCode: "TELEF", quantity: "2", unitPriceExclVat: "100", serials: ["S3", "S1"] }])).id,
    });
    expect((await journalLines(h, w.companyId, inv.journalTransactionId))!.slice(-2)).toEqual([
      ["6000", "40.00", "0.00"],
      ["2040", "0.00", "40.00"],
    ]);
    expect((await layerRows(h, w.companyId)).map((l) => [l[8], l[3]])).toEqual([
      ["S1", "0"],
      ["S2", "1"],
      ["S3", "0"],
    ]);
    const op = await saleOperation(w, inv.id);
    expect(op.journal_transaction_id).toBe(inv.journalTransactionId);
  });

  test.each([
    { name: "a serial-tracked item in part units", line: { itemCode: "TELEF", quantity: "1.5", unitPriceExclVat: "100" }, field: "lines[0].quantity" },
    { name: "two serials for one unit", line: { itemCode: "TELEF", quantity: "1", unitPriceExclVat: "100", serials: ["S1", "S2"] }, field: "lines[0].serials" },
    {
      name: "serials of an item tracked by lot",
      line: { itemCode: "PIENAS", quantity: "1", unitPriceExclVat: "5", serials: ["S1"] },
      field: "lines[0].serials",
    },
    { name: "a lot of an untracked item", line: { itemCode: "PREKE", quantity: "1", lotNumber: "A" }, field: "lines[0].lotNumber" },
    { name: "a lot on a service", line: { itemCode: "KONS", quantity: "1", lotNumber: "A" }, field: "lines[0].lotNumber" },
  ])("$name -> 422 sale_invoice.tracking_invalid naming $field, nothing stored", async ({ line, field }) => {
    const w = await invoicesWorld();
    const error = await expectApiError(
      w.api.sales.invoices.create({ partnerCode: "PIRKEJAS", issueDate: "2026-03-10", lines: [line] }),
      422,
      "unprocessable",
      "sale_invoice.tracking_invalid",
    );
    expect(Object.keys(error.fieldErrors ?? {})).toEqual([field]);
    expect(await h.db("sale_invoices").where({ company_id: w.companyId })).toEqual([]);
  });
});

describe("a sales credit note brings returned goods back into stock", () => {
  test("at the cost the invoice took them at, most recently taken first; never more than was taken; the books follow the layers", async () => {
    const w = await invoicesWorld();
    await receive(w, [{ itemCode: "PREKE", quantity: "2", unitCost: "4" }], { date: "2026-03-01" });
    await receive(w, [{ itemCode: "PREKE", quantity: "5", unitCost: "0.333333" }], { date: "2026-03-02" });
    // The invoice takes 2 x 4.00 and 1 x 0.33: 8.33.
    const inv = await w.api.sales.invoices.issue({
      id: (
        await saleDraft(w, [
          { itemCode: "PREKE", quantity: "3" },
          { itemCode: "KONS", quantity: "1" },
        ])
      ).id,
    });
    const returning = (quantity: string, more: Record<string, unknown> = {}) =>
      saleDraft(w, [{ itemCode: "PREKE", quantity, returnToStock: true, ...more }], {
        type: "credit_note",
        creditedInvoiceId: inv.id,
        issueDate: "2026-03-12",
      });

    // Two back: the 0.333333 unit (taken last) at 0.33, then one of the 4.00 units.
    const first = await w.api.sales.invoices.issue({ id: (await returning("2")).id });
    expect(first.lines[0]).toMatchObject({ returnToStock: true, quantity: "2" });
    expect(await journalLines(h, w.companyId, first.journalTransactionId)).toEqual([
      ["2410", "0.00", "24.20"],
      ["5000", "20.00", "0.00"],
      ["4492", "4.20", "0.00"],
      ["2040", "4.33", "0.00"],
      ["6000", "0.00", "4.33"],
    ]);
    const op = await h.db("stock_operations").where({ company_id: w.companyId, source_type: "sale_credit_note", source_id: first.id }).first();
    expect([op.kind, op.date, op.journal_transaction_id]).toEqual(["sale_invoice", "2026-03-12", first.journalTransactionId]);
    const [event] = await h.db("webhook_events").where({ company_id: w.companyId, event_type: "inventory.stock_moved" }).whereRaw("data->>'id' = ?", [op.id]);
    expect(
      event.data.movements.map((m: any) => [m.direction, m.itemCode, m.quantity, m.value, m.layers.map((l: any) => [l.quantity, l.unitCost, l.value])]),
    ).toEqual([
      [
        "in",
        "PREKE",
        "2",
        "4.33",
        [
          ["1", "0.333333", "0.33"],
          ["1", "4.000000", "4.00"],
        ],
      ],
    ]);
    expect(event.data.journalTransactionId).toBe(first.journalTransactionId);

    // One is left to come back: two is refused (at create), naming the quantity.
    const error = await expectApiError(
      w.api.sales.invoices.create({
        partnerCode: "PIRKEJAS",
        issueDate: "2026-03-12",
        type: "credit_note",
        creditedInvoiceId: inv.id,
        lines: [{ itemCode: "PREKE", quantity: "2", returnToStock: true }],
      }),
      422,
      "unprocessable",
      "sale_invoice.return_exceeds_sold",
    );
    expect(error.fieldErrors).toEqual({ "lines[0].quantity": [expect.stringContaining("only 1 of PREKE can come back")] });
    // Goods the invoice did not take out of stock (a service) cannot come back.
    await expectApiError(
      w.api.sales.invoices.create({
        partnerCode: "PIRKEJAS",
        issueDate: "2026-03-12",
        type: "credit_note",
        creditedInvoiceId: inv.id,
        lines: [{ itemCode: "KONS", quantity: "1", returnToStock: true }],
      }),
      422,
      "unprocessable",
      "sale_invoice.return_invalid",
    );

    // The last one: what is left of the 4.00 part.
    const last = await w.api.sales.invoices.issue({ id: (await returning("1", { warehouseCode: "FILIAL" })).id });
    expect((await journalLines(h, w.companyId, last.journalTransactionId))!.slice(-2)).toEqual([
      ["2040", "4.00", "0.00"],
      ["6000", "0.00", "4.00"],
    ]);
    expect(await layerRows(h, w.companyId)).toEqual([
      ["PREKE", "CENTR", "2", "0", "4", "8.00", "0.00", null, null],
      ["PREKE", "CENTR", "5", "4", "0.333333", "1.67", "1.34", null, null],
      ["PREKE", "CENTR", "1", "1", "0.333333", "0.33", "0.33", null, null],
      ["PREKE", "CENTR", "1", "1", "4", "4.00", "4.00", null, null],
      ["PREKE", "FILIAL", "1", "1", "4", "4.00", "4.00", null, null],
    ]);
    expect(await accountBalance(h, w.companyId, "6000")).toBe("0.00");
    expect(await accountBalance(h, w.companyId, "2040")).toBe(await layersValue(h, w.companyId));
    // Everything is back: a draft returning more is refused at issue as well (written before the last return).
    await expectApiError(
      w.api.sales.invoices.create({
        partnerCode: "PIRKEJAS",
        issueDate: "2026-03-12",
        type: "credit_note",
        creditedInvoiceId: inv.id,
        lines: [{ itemCode: "PREKE", quantity: "1", returnToStock: true }],
      }),
      422,
      "unprocessable",
      "sale_invoice.return_exceeds_sold",
    );
  });

  test("a draft written while the goods could come back is refused at issue once another credit note brought them back", async () => {
    const w = await invoicesWorld();
    await receive(w, [{ itemCode: "PREKE", quantity: "1", unitCost: "4" }]);
    const inv = await w.api.sales.invoices.issue({ id: (await saleDraft(w, [{ itemCode: "PREKE", quantity: "1" }])).id });
    const drafts = [];
    // Priced at 1.00 each, so that both fit within the invoice's gross (12.10).
    for (let i = 0; i < 2; i++)
      drafts.push(
        await saleDraft(w, [{ itemCode: "PREKE", quantity: "1", unitPriceExclVat: "1", returnToStock: true }], {
          type: "credit_note",
          creditedInvoiceId: inv.id,
        }),
      );
    await w.api.sales.invoices.issue({ id: drafts[0].id });
    await expectApiError(w.api.sales.invoices.issue({ id: drafts[1].id }), 422, "unprocessable", "sale_invoice.return_exceeds_sold");
    expect((await h.db("sale_invoices").where({ id: drafts[1].id }).first()).status).toBe("draft");
    expect(await layerRows(h, w.companyId)).toEqual([
      ["PREKE", "CENTR", "1", "0", "4", "4.00", "0.00", null, null],
      ["PREKE", "CENTR", "1", "1", "4", "4.00", "4.00", null, null],
    ]);
  });
});

// Issue 23, item 1: the FIFO rule has one home, the database function stock_fifo_parts. A sales invoice takes through
// it in one statement (stock_take_fifo, which passes what its earlier lines took), a write-off or a transfer line by
// line (takeFifo). The same takes from the same layers, through either way or both by turns, give the same parts to
// the cent: FIFO by date, then the order written; nothing dated after the take; a part worth quantity × unit cost
// rounded half-up, never more than is left; the part that empties a layer takes exactly what is left of its value.
describe("one FIFO rule for both ways of taking", () => {
  type Line = { itemCode: string; quantity: string; lotNumber?: string };
  /** Per outgoing line, its parts as [layer, quantity, value]. */
  type Parts = [string, string, string][][];
  const steps: { lines: Line[]; parts?: Parts; short?: { available: string; requested: string } }[] = [
    { lines: [{ itemCode: "PREKE", quantity: "1" }], parts: [[["B", "1", "0.01"]]] },
    { lines: [{ itemCode: "PREKE", quantity: "2.5" }], parts: [[["B", "2.5", "0.01"]]] },
    {
      lines: [{ itemCode: "PREKE", quantity: "1.1667" }],
      parts: [
        [
          ["B", "0.5", "0.00"],
          ["C", "0.6667", "6.66"],
        ],
      ],
    },
    // Two lines of one item: the second starts in the layer the first took part of (a sale has not lowered it yet).
    {
      lines: [
        { itemCode: "PREKE", quantity: "0.1" },
        { itemCode: "PREKE", quantity: "1.2333" },
      ],
      parts: [
        [["C", "0.1", "1.00"]],
        [
          ["C", "0.2333", "2.33"],
          ["A", "1", "0.33"],
        ],
      ],
    },
    { lines: [{ itemCode: "PIENAS", quantity: "1", lotNumber: "L2" }], parts: [[["F", "1", "0.67"]]] },
    // D (dated after the take) does not count.
    { lines: [{ itemCode: "PREKE", quantity: "2.5" }], short: { available: "2", requested: "2.5" } },
    {
      lines: [
        { itemCode: "PREKE", quantity: "1" },
        { itemCode: "PIENAS", quantity: "2", lotNumber: "L2" },
      ],
      parts: [[["A", "1", "0.33"]], [["F", "2", "1.33"]]],
    },
    { lines: [{ itemCode: "PREKE", quantity: "1" }], parts: [[["A", "1", "0.34"]]] },
  ];
  type Way = "sale" | "write-off" | "transfer";
  const ways: { name: string; way: (step: number) => Way }[] = [
    { name: "sales invoices (stock_take_fifo)", way: () => "sale" },
    { name: "write-offs (takeFifo)", way: () => "write-off" },
    { name: "a sale and a transfer by turns", way: (step) => (step % 2 ? "transfer" : "sale") },
  ];

  test.each(ways)("$name", async ({ way }) => {
    const w = await invoicesWorld();
    const receive = (date: string, lines: RequestBody<"inventory_stock_receive">["lines"]) =>
      w.api.inventory.stock.receive({ warehouseCode: "CENTR", date, counterAccountCode: "4430", lines });
    const layerOf = new Map<string, string>();
    const name = (op: ResponseData<"inventory_stock_receive">, names: string[]) => op.movements.forEach((m, k) => layerOf.set(m.layers[0].layerId, names[k]));
    // Written first but dated later: A comes after B and C, which are ordered as written.
    name(await receive("2026-03-02", [{ itemCode: "PREKE", quantity: "3", unitCost: "0.333333" }]), ["A"]);
    name(
      await receive("2026-03-01", [
        { itemCode: "PREKE", quantity: "4", unitCost: "0.005" },
        { itemCode: "PREKE", quantity: "1", unitCost: "9.99" },
        { itemCode: "PIENAS", quantity: "2", unitCost: "1.5", lotNumber: "L1" },
        { itemCode: "PIENAS", quantity: "3", unitCost: "0.666667", lotNumber: "L2" },
      ]),
      ["B", "C", "E", "F"],
    );
    name(await receive("2026-03-20", [{ itemCode: "PREKE", quantity: "5", unitCost: "1" }]), ["D"]);

    const take = async (kind: Way, lines: Line[]): Promise<string> => {
      if (kind === "write-off") return (await w.api.inventory.stock.writeOff({ warehouseCode: "CENTR", date: "2026-03-10", lines })).id;
      if (kind === "transfer")
        return (await w.api.inventory.stock.transfer({ fromWarehouseCode: "CENTR", toWarehouseCode: "FILIAL", date: "2026-03-10", lines })).id;
      const draft = await w.api.sales.invoices.create({
        partnerCode: "PIRKEJAS",
        issueDate: "2026-03-10",
        lines: lines.map((l) => ({ ...l, unitPriceExclVat: "5" })),
      });
      const invoice = await w.api.sales.invoices.issue({ id: draft.id });
      return (await saleOperation(w, invoice.id)).id;
    };
    const partsOf = async (operationId: string): Promise<Parts> => {
      const rows = await h
        .db("stock_consumptions as c")
        .join("stock_movements as m", (j) => j.on("m.company_id", "c.company_id").andOn("m.id", "c.movement_id"))
        .join("stock_layers as l", (j) => j.on("l.company_id", "c.company_id").andOn("l.id", "c.layer_id"))
        .where({ "m.company_id": w.companyId, "m.operation_id": operationId })
        .orderBy(["m.line_no", "l.date", "l.seq"])
        .select("m.line_no", "c.layer_id", "c.quantity", "c.value");
      const lines = [...new Set(rows.map((r) => r.line_no))];
      return lines.map((n) =>
        rows.filter((r) => r.line_no === n).map((r) => [layerOf.get(r.layer_id)!, new Decimal(r.quantity).toFixed(), new Decimal(r.value).toFixed(2)]),
      );
    };

    for (const [k, step] of steps.entries()) {
      const kind = way(k);
      if (step.short) {
        const before = await layerRows(h, w.companyId);
        const error = await expectApiError(take(kind, step.lines), 422, "unprocessable", "inventory.insufficient_stock");
        expect([k, error.params]).toEqual([k, { itemCode: "PREKE", warehouseCode: "CENTR", ...step.short }]);
        expect(await layerRows(h, w.companyId)).toEqual(before);
      } else {
        expect([k, kind, await partsOf(await take(kind, step.lines))]).toEqual([k, kind, step.parts]);
      }
    }
    const centr = (await layerRows(h, w.companyId)).filter((l) => l[1] === "CENTR");
    expect(centr).toEqual([
      ["PIENAS", "CENTR", "2", "2", "1.5", "3.00", "3.00", "L1", null],
      ["PIENAS", "CENTR", "3", "0", "0.666667", "2.00", "0.00", "L2", null],
      ["PREKE", "CENTR", "4", "0", "0.005", "0.02", "0.00", null, null],
      ["PREKE", "CENTR", "1", "0", "9.99", "9.99", "0.00", null, null],
      ["PREKE", "CENTR", "3", "0", "0.333333", "1.00", "0.00", null, null],
      ["PREKE", "CENTR", "5", "5", "1", "5.00", "5.00", null, null],
    ]);
    expect(await accountBalance(h, w.companyId, "2040")).toBe(await layersValue(h, w.companyId));
  });

  // An item with many open layers is not locked whole by a take of one unit: the layers are locked as the FIFO loop
  // reads them (PL/pgSQL's FOR over a query reads through a cursor, 10 rows at first), and it stops once the quantity
  // is covered. Another transaction holds the 50th layer; a write-off and a sale of one unit each must not wait for it.
  test("a take of one unit locks only the first layers: a write-off and a sale go through while the 50th layer is held", async () => {
    const w = await invoicesWorld();
    const op = await w.api.inventory.stock.receive({
      warehouseCode: "CENTR",
      date: "2026-03-01",
      counterAccountCode: "4430",
      lines: Array.from({ length: 60 }, (_, k) => ({ itemCode: "PREKE", quantity: "1", unitCost: `${k + 1}` })),
    });
    const layers = op.movements.map((m) => m.layers[0].layerId);
    const blocker = new pg.Client({ connectionString: h.connectionString });
    await blocker.connect();
    const blockerPid = (blocker as unknown as { processID: number }).processID;
    /** Settles `call` while watching whether it waits on a lock (then it would wait for the blocker's commit). */
    const unblocked = async <T>(call: Promise<T>) => {
      let done = false;
      const settled = settle(call).finally(() => {
        done = true;
      });
      while (!done) {
        const { rows } = await h.db.raw<{ rows: { n: number }[] }>(
          "select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and pid <> pg_backend_pid() and pid <> ?",
          [blockerPid],
        );
        if (rows[0].n > 0) return { waited: true, result: undefined };
        await new Promise((r) => setTimeout(r, 10));
      }
      return { waited: false, result: await settled };
    };
    let writeOff: Awaited<ReturnType<typeof unblocked>>;
    let sale: Awaited<ReturnType<typeof unblocked>>;
    try {
      await blocker.query("begin");
      await blocker.query("select 1 from stock_layers where company_id = $1 and id = $2 for update", [w.companyId, layers[49]]);
      writeOff = await unblocked(w.api.inventory.stock.writeOff({ warehouseCode: "CENTR", date: "2026-03-10", lines: [{ itemCode: "PREKE", quantity: "1" }] }));
      const draft = await w.api.sales.invoices.create({ partnerCode: "PIRKEJAS", issueDate: "2026-03-10", lines: [{ itemCode: "PREKE", quantity: "1" }] });
      sale = await unblocked(w.api.sales.invoices.issue({ id: draft.id }));
    } finally {
      await blocker.query("commit");
      await blocker.end();
    }
    expect([writeOff.waited, writeOff.result?.status]).toEqual([false, 200]);
    expect([sale.waited, sale.result?.status]).toEqual([false, 200]);
    const taken = await h.db("stock_layers").where({ company_id: w.companyId }).andWhere("remaining_quantity", 0).orderBy("seq").pluck("id");
    expect(taken).toEqual([layers[0], layers[1]]);
    expect(await accountBalance(h, w.companyId, "2040")).toBe(await layersValue(h, w.companyId));
  });
});
