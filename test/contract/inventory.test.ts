// inventory: warehouses (codes, the default, a used code stays), receipts (tracking rules, the posting, the counter
// account), FIFO across layers and its rounding, transfers, write-offs, stock takes (also back-dated ones), lots and
// serials, not enough stock (also when a balance disagrees with its layers), locked months, the database's own
// invariants, levels as of a date, the movements list, two concurrent issues of the last unit, tenancy and scopes.
// Journal entries and stored rows are read back from the database. Every call goes through the SDK; a body the contract
// forbids only through invalid().
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import pg from "pg";
import { expectApiError, invalid, settle } from "../support/expect.js";
import { keyWith } from "../support/keys.js";
import type { RequestBody } from "../../sdk/typescript/src/index.js";
import { startHarness, type Harness } from "../support/harness.js";
import { accountBalance, journalLines, layerRows, layersValue, stockSnapshot, stockWorld, type StockWorld } from "../support/inventory.js";
import { waitForLockWaiters } from "../support/db-waits.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

type ReceiveBody = RequestBody<"inventory_stock_receive">;

const receive = (w: StockWorld, lines: ReceiveBody["lines"], over: Partial<ReceiveBody> = {}) =>
  w.api.inventory.stock.receive({ warehouseCode: "CENTR", date: "2026-03-01", counterAccountCode: "4430", lines, ...over });
const stockRows = async (w: StockWorld) => ({
  operations: await h.db("stock_operations").where({ company_id: w.companyId }),
  movements: await h.db("stock_movements").where({ company_id: w.companyId }),
  layers: await layerRows(h, w.companyId),
  journal: await h.db("journal_transactions").where({ company_id: w.companyId }),
});

describe("warehouses", () => {
  test("the first warehouse is the default; another becomes it by update; the default cannot be unset; codes are unique", async () => {
    const w = await stockWorld(h, { warehouses: false });
    const first = await w.api.inventory.warehouses.create({ code: "CENTR", name: "Centrinis" });
    const second = await w.api.inventory.warehouses.create({ code: "FILIAL", name: "Filialas" });
    expect([first.isDefault, second.isDefault]).toEqual([true, false]);
    await expectApiError(w.api.inventory.warehouses.create({ code: "CENTR", name: "Kitas" }), 409, "conflict", "warehouse.code_taken");
    await expectApiError(w.api.inventory.warehouses.update({ id: first.id, isDefault: false }), 422, "unprocessable", "warehouse.default_required");
    const moved = await w.api.inventory.warehouses.update({ id: second.id, isDefault: true, name: "Filialas Kaune" });
    expect(moved).toMatchObject({ code: "FILIAL", name: "Filialas Kaune", isDefault: true });
    await expectApiError(w.api.inventory.warehouses.update({ id: second.id, code: "CENTR" }), 409, "conflict", "warehouse.code_taken");
    const third = await w.api.inventory.warehouses.create({ code: "TRECIAS", name: "Trečias", isDefault: true });
    expect(third.isDefault).toBe(true);
    const rows = await h.db("warehouses").where({ company_id: w.companyId }).orderBy("code");
    expect(rows.map((r) => [r.code, r.is_default])).toEqual([
      ["CENTR", false],
      ["FILIAL", false],
      ["TRECIAS", true],
    ]);
    expect((await w.api.inventory.warehouses.get({ code: "FILIAL" })).id).toBe(second.id);
    expect((await w.api.inventory.warehouses.get({ id: first.id })).code).toBe("CENTR");
    await expectApiError(w.api.inventory.warehouses.get({ code: "NERA" }), 404, "not_found", "warehouse.not_found");
    const list = await w.api.inventory.warehouses.list({ filter: [{ field: "isDefault", op: "eq", value: false }] });
    expect(list.rows.map((r: { code: string }) => r.code)).toEqual(["CENTR", "FILIAL"]);
  });

  // Invoice lines name their warehouse by code (no foreign key), so a code stays once anything names it.
  const named: { name: string; use: (w: StockWorld) => Promise<unknown>; params: Record<string, unknown> }[] = [
    {
      name: "a sales draft's line",
      use: async (w) => {
        await w.api.partners.create({ name: "Pirkėjas UAB", code: "PIRKEJAS" });
        await w.api.sales.invoices.create({
          partnerCode: "PIRKEJAS",
          issueDate: "2026-03-10",
          lines: [{ itemCode: "PREKE", quantity: "1", unitPriceExclVat: "10", warehouseCode: "FILIAL" }],
        });
      },
      params: { invoiceLines: true, movements: false },
    },
    {
      name: "a purchase draft's line",
      use: async (w) => {
        await w.api.partners.create({ name: "Tiekėjas UAB", code: "TIEKEJAS", isCustomer: false, isSupplier: true });
        await w.api.purchases.invoices.create({
          partnerCode: "TIEKEJAS",
          documentNumber: "PR-1",
          documentDate: "2026-03-02",
          lines: [{ itemCode: "PREKE", quantity: "1", unitPriceExclVat: "4", warehouseCode: "FILIAL" }],
        });
      },
      params: { invoiceLines: true, movements: false },
    },
    {
      name: "a stock movement",
      use: (w) => w.api.inventory.stock.receive({ warehouseCode: "FILIAL", date: "2026-03-01", lines: [{ itemCode: "PREKE", quantity: "1", unitCost: "4" }] }),
      params: { invoiceLines: false, movements: true },
    },
  ];
  test.each(named)("a code named by $name stays (409 warehouse.code_in_use); the name may change", async ({ use, params }) => {
    const w = await stockWorld(h);
    const filial = await w.api.inventory.warehouses.get({ code: "FILIAL" });
    await use(w);
    const error = await expectApiError(w.api.inventory.warehouses.update({ id: filial.id, code: "KAUNAS" }), 409, "conflict", "warehouse.code_in_use");
    expect(error.params).toEqual({ id: filial.id, code: "FILIAL", ...params });
    expect((await h.db("warehouses").where({ company_id: w.companyId, id: filial.id }).first()).code).toBe("FILIAL");
    expect(await w.api.inventory.warehouses.update({ id: filial.id, name: "Filialas Kaune" })).toMatchObject({ code: "FILIAL", name: "Filialas Kaune" });
  });

  test("a code nothing names may change", async () => {
    const w = await stockWorld(h);
    // CENTR holds stock; FILIAL is named by nothing.
    await w.api.inventory.stock.receive({ warehouseCode: "CENTR", date: "2026-03-01", lines: [{ itemCode: "PREKE", quantity: "1", unitCost: "4" }] });
    const filial = await w.api.inventory.warehouses.get({ code: "FILIAL" });
    expect(await w.api.inventory.warehouses.update({ id: filial.id, code: "KAUNAS" })).toMatchObject({ id: filial.id, code: "KAUNAS" });
    expect(await h.db("warehouses").where({ company_id: w.companyId }).orderBy("code").pluck("code")).toEqual(["CENTR", "KAUNAS"]);
  });

  test("two first warehouses created at once: exactly one is the default", async () => {
    const w = await stockWorld(h, { warehouses: false });
    const results = await Promise.all(["A", "B", "C"].map((code) => settle(w.api.inventory.warehouses.create({ code, name: code }))));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(results.filter((r) => r.data?.isDefault).length).toBe(1);
    const defaults = await h.db("warehouses").where({ company_id: w.companyId, is_default: true });
    expect(defaults).toHaveLength(1);
  });
});

describe("receive", () => {
  test("with a counter account it posts debit 2040 credit that account for the layers' value; one layer per serial", async () => {
    const w = await stockWorld(h);
    const op = await receive(w, [
      { itemCode: "PREKE", quantity: "3", unitCost: "0.333333" },
      { itemCode: "PIENAS", quantity: "2.5", unitCost: "1.2", lotNumber: "L1", expiryDate: "2026-04-01" },
      { itemCode: "TELEF", quantity: "2", unitCost: "100.005", serials: ["S1", "S2"] },
    ]);
    expect(op).toMatchObject({ kind: "receipt", date: "2026-03-01", warehouseCode: "CENTR", toWarehouseCode: null });
    expect(op.movements.map((m: any) => [m.lineNo, m.itemCode, m.quantity, m.value, m.layers.length])).toEqual([
      [1, "PREKE", "3", "1.00", 1],
      [2, "PIENAS", "2.5", "3.00", 1],
      [3, "TELEF", "2", "200.02", 2],
    ]);
    expect(await journalLines(h, w.companyId, op.journalTransactionId)).toEqual([
      ["2040", "204.02", "0.00"],
      ["4430", "0.00", "204.02"],
    ]);
    const tx = await h.db("journal_transactions").where({ company_id: w.companyId, id: op.journalTransactionId }).first();
    expect([tx.document_type, tx.source_type, tx.source_id]).toEqual(["inventory", "stock_operation", op.id]);
    expect(await layerRows(h, w.companyId)).toEqual([
      ["PIENAS", "CENTR", "2.5", "2.5", "1.2", "3.00", "3.00", "L1", null],
      ["PREKE", "CENTR", "3", "3", "0.333333", "1.00", "1.00", null, null],
      ["TELEF", "CENTR", "1", "1", "100.005", "100.01", "100.01", null, "S1"],
      ["TELEF", "CENTR", "1", "1", "100.005", "100.01", "100.01", null, "S2"],
    ]);
    const events = await h.db("webhook_events").where({ company_id: w.companyId, event_type: "inventory.stock_moved" });
    expect(events.map((e) => e.data)).toEqual([op]);
  });

  // Issue 22, item 11: a receipt without a counter account wrote layers worth 8.00 and posted nothing, so the stock
  // account and the layers parted ways. It posts against goods received not invoiced (4431) instead.
  test("without a counter account it posts debit 2040, credit goods received not invoiced (4431); a receipt worth 0.00 posts nothing", async () => {
    const w = await stockWorld(h);
    const op = await receive(w, [{ itemCode: "PREKE", quantity: "2", unitCost: "4" }], { counterAccountCode: undefined });
    expect(await journalLines(h, w.companyId, op.journalTransactionId)).toEqual([
      ["2040", "8.00", "0.00"],
      ["4431", "0.00", "8.00"],
    ]);
    const tx = await h.db("journal_transactions").where({ company_id: w.companyId, id: op.journalTransactionId }).first();
    expect([tx.document_type, tx.source_type, tx.source_id]).toEqual(["inventory", "stock_operation", op.id]);
    expect(await layerRows(h, w.companyId)).toEqual([["PREKE", "CENTR", "2", "2", "4", "8.00", "8.00", null, null]]);
    expect([await accountBalance(h, w.companyId, "2040"), await layersValue(h, w.companyId)]).toEqual(["8.00", "8.00"]);
    // The rule may point at the company's own clearing account.
    await w.api.ledger.accounts.create({ code: "4496", name: "Gautos prekės be sąskaitų", type: "liability", parentCode: "449" });
    await w.api.ledger.postingRules.update({ rule: "inventory.goodsReceivedNotInvoiced", accountCode: "4496" });
    const second = await w.api.inventory.stock.receive({
      warehouseCode: "CENTR",
      date: "2026-03-02",
      lines: [{ itemCode: "PREKE", quantity: "1", unitCost: "3" }],
    });
    expect(await journalLines(h, w.companyId, second.journalTransactionId)).toEqual([
      ["2040", "3.00", "0.00"],
      ["4496", "0.00", "3.00"],
    ]);
    const free = await w.api.inventory.stock.receive({
      warehouseCode: "CENTR",
      date: "2026-03-02",
      lines: [{ itemCode: "PREKE", quantity: "1", unitCost: "0" }],
    });
    expect(free.journalTransactionId).toBeNull();
    expect(await h.db("journal_transactions").where({ company_id: w.companyId })).toHaveLength(2);
    expect([await accountBalance(h, w.companyId, "2040"), await layersValue(h, w.companyId)]).toEqual(["11.00", "11.00"]);
  });

  const refused: { name: string; body: Record<string, unknown>; status: number; key: string; field: string }[] = [
    {
      name: "an unknown item",
      body: { lines: [{ itemCode: "NERA", quantity: "1", unitCost: "1" }] },
      status: 422,
      key: "inventory.item_unknown",
      field: "lines[0].itemCode",
    },
    {
      name: "a service",
      body: { lines: [{ itemCode: "KONS", quantity: "1", unitCost: "1" }] },
      status: 422,
      key: "inventory.item_not_stocked",
      field: "lines[0].itemCode",
    },
    {
      name: "a lot item without a lot",
      body: { lines: [{ itemCode: "PIENAS", quantity: "1", unitCost: "1" }] },
      status: 422,
      key: "inventory.lot_required",
      field: "lines[0].lotNumber",
    },
    {
      name: "a lot on an untracked item",
      body: { lines: [{ itemCode: "PREKE", quantity: "1", unitCost: "1", lotNumber: "L" }] },
      status: 422,
      key: "inventory.lot_not_tracked",
      field: "lines[0].lotNumber",
    },
    {
      name: "an expiry on an untracked item",
      body: { lines: [{ itemCode: "PREKE", quantity: "1", unitCost: "1", expiryDate: "2027-01-01" }] },
      status: 422,
      key: "inventory.expiry_not_tracked",
      field: "lines[0].expiryDate",
    },
    {
      name: "a serial item without serials",
      body: { lines: [{ itemCode: "TELEF", quantity: "1", unitCost: "1" }] },
      status: 422,
      key: "inventory.serials_required",
      field: "lines[0].serials",
    },
    {
      name: "fewer serials than units",
      body: { lines: [{ itemCode: "TELEF", quantity: "2", unitCost: "1", serials: ["X"] }] },
      status: 422,
      key: "inventory.serial_count",
      field: "lines[0].serials",
    },
    {
      name: "a repeated serial",
      body: { lines: [{ itemCode: "TELEF", quantity: "2", unitCost: "1", serials: ["X", "X"] }] },
      status: 422,
      key: "inventory.serial_repeated",
      field: "lines[0].serials",
    },
    {
      name: "serials on an untracked item",
      body: { lines: [{ itemCode: "PREKE", quantity: "1", unitCost: "1", serials: ["X"] }] },
      status: 422,
      key: "inventory.serial_not_tracked",
      field: "lines[0].serials",
    },
    {
      name: "an unknown warehouse",
      body: { warehouseCode: "NERA", lines: [{ itemCode: "PREKE", quantity: "1", unitCost: "1" }] },
      status: 422,
      key: "warehouse.unknown",
      field: "warehouseCode",
    },
    {
      name: "an unknown counter account",
      body: { counterAccountCode: "9999", lines: [{ itemCode: "PREKE", quantity: "1", unitCost: "1" }] },
      status: 422,
      key: "inventory.account_invalid",
      field: "counterAccountCode",
    },
    {
      name: "a header counter account",
      body: { counterAccountCode: "44", lines: [{ itemCode: "PREKE", quantity: "1", unitCost: "1" }] },
      status: 422,
      key: "inventory.account_invalid",
      field: "counterAccountCode",
    },
    {
      name: "the stock account itself as the counter account",
      body: { counterAccountCode: "2040", lines: [{ itemCode: "PREKE", quantity: "1", unitCost: "1" }] },
      status: 422,
      key: "inventory.account_invalid",
      field: "counterAccountCode",
    },
    {
      name: "a value above the largest amount",
      body: { lines: [{ itemCode: "PREKE", quantity: "999999999999", unitCost: "999999999999999" }] },
      status: 422,
      key: "inventory.value_too_large",
      field: "lines[0].unitCost",
    },
    {
      name: "five decimals of quantity",
      body: { lines: [{ itemCode: "PREKE", quantity: "1.00001", unitCost: "1" }] },
      status: 400,
      key: "request.invalid",
      field: "lines[0].quantity",
    },
    {
      name: "a zero quantity",
      body: { lines: [{ itemCode: "PREKE", quantity: "0", unitCost: "1" }] },
      status: 400,
      key: "request.invalid",
      field: "lines[0].quantity",
    },
    {
      name: "a date beyond 2100",
      body: { date: "2101-01-01", lines: [{ itemCode: "PREKE", quantity: "1", unitCost: "1" }] },
      status: 400,
      key: "request.invalid",
      field: "date",
    },
    { name: "no lines", body: { lines: [] }, status: 400, key: "request.invalid", field: "lines" },
  ];
  test.each(refused)("refuses $name ($status $key), storing nothing", async ({ body, status, key, field }) => {
    const w = await stockWorld(h);
    const error = await expectApiError(
      w.api.inventory.stock.receive(invalid({ warehouseCode: "CENTR", date: "2026-03-01", counterAccountCode: "4430", ...body })),
      status,
      status === 400 ? "validation" : "unprocessable",
      key,
    );
    expect(Object.keys(error.fieldErrors ?? {})).toContain(field);
    expect(await stockRows(w)).toEqual({ operations: [], movements: [], layers: [], journal: [] });
  });

  // Any postable account other than the stock account: what the goods are owed to, paid from, came back from, or
  // were given as.
  test.each([
    { name: "a supplier (liability)", account: "4430" },
    { name: "the bank (asset, paid at once)", account: "2710" },
    { name: "cost of sales (expense, goods coming back at their cost)", account: "6000" },
    { name: "other income (goods received free)", account: "5401" },
    { name: "share capital (equity, a contribution in kind)", account: "3010" },
  ])("the counter account may be $name: debit 2040, credit $account", async ({ account }) => {
    const w = await stockWorld(h);
    const op = await w.api.inventory.stock.receive({
      warehouseCode: "CENTR",
      date: "2026-03-01",
      counterAccountCode: account,
      lines: [{ itemCode: "PREKE", quantity: "3", unitCost: "0.333333" }],
    });
    expect(await journalLines(h, w.companyId, op.journalTransactionId)).toEqual([
      ["2040", "1.00", "0.00"],
      [account, "0.00", "1.00"],
    ]);
  });

  test("a serial already in stock is 409 and nothing is stored", async () => {
    const w = await stockWorld(h);
    await receive(w, [{ itemCode: "TELEF", quantity: "1", unitCost: "10", serials: ["S1"] }]);
    const before = await stockRows(w);
    await expectApiError(
      w.api.inventory.stock.receive({
        warehouseCode: "FILIAL",
        date: "2026-03-02",
        lines: [{ itemCode: "TELEF", quantity: "1", unitCost: "10", serials: ["S1"] }],
      }),
      409,
      "conflict",
      "inventory.serial_in_stock",
    );
    expect(await stockRows(w)).toEqual(before);
  });
});

describe("FIFO", () => {
  test("a write-off takes the oldest layers first (by date, then order written) at their costs and posts 63091 / 2040", async () => {
    const w = await stockWorld(h);
    await receive(w, [{ itemCode: "PREKE", quantity: "2", unitCost: "5" }], { date: "2026-03-05" });
    await receive(w, [{ itemCode: "PREKE", quantity: "3", unitCost: "0.333333" }], { date: "2026-03-01" });
    await receive(w, [{ itemCode: "PREKE", quantity: "1", unitCost: "7.5" }], { date: "2026-03-05" });
    const op = await w.api.inventory.stock.writeOff({ warehouseCode: "CENTR", date: "2026-03-10", lines: [{ itemCode: "PREKE", quantity: "4.5" }] });
    expect(op.movements[0]).toMatchObject({ direction: "out", quantity: "-4.5", value: "-8.50" });
    expect(op.movements[0].layers.map((p: any) => [p.quantity, p.unitCost, p.value])).toEqual([
      ["3", "0.333333", "1.00"],
      ["1.5", "5.000000", "7.50"],
    ]);
    expect(await journalLines(h, w.companyId, op.journalTransactionId)).toEqual([
      ["63091", "8.50", "0.00"],
      ["2040", "0.00", "8.50"],
    ]);
    expect(await layerRows(h, w.companyId)).toEqual([
      ["PREKE", "CENTR", "3", "0", "0.333333", "1.00", "0.00", null, null],
      ["PREKE", "CENTR", "2", "0.5", "5", "10.00", "2.50", null, null],
      ["PREKE", "CENTR", "1", "1", "7.5", "7.50", "7.50", null, null],
    ]);
    const consumptions = await h.db("stock_consumptions").where({ company_id: w.companyId }).orderBy("value");
    expect(consumptions.map((c) => [Number(c.quantity), c.value])).toEqual([
      [3, "1.00"],
      [1.5, "7.50"],
    ]);
  });

  // Each part is quantity x unit cost rounded to cents, never more than the layer has left; the part that empties
  // the layer takes what is left, so the parts of a layer add up to its value.
  const rounding: { name: string; quantity: string; unitCost: string; takes: string[]; values: string[] }[] = [
    { name: "thirds", quantity: "3", unitCost: "0.333333", takes: ["1", "1", "1"], values: ["0.33", "0.33", "0.34"] },
    {
      name: "half-cent units, capped at what is left",
      quantity: "4",
      unitCost: "0.005",
      takes: ["1", "1", "1", "1"],
      values: ["0.01", "0.01", "0.00", "0.00"],
    },
    { name: "fractional quantities", quantity: "1", unitCost: "9.99", takes: ["0.3333", "0.3333", "0.3334"], values: ["3.33", "3.33", "3.33"] },
    { name: "a zero cost", quantity: "2", unitCost: "0", takes: ["0.5", "1.5"], values: ["0.00", "0.00"] },
  ];
  test.each(rounding)("rounding: $name", async ({ quantity, unitCost, takes, values }) => {
    const w = await stockWorld(h);
    const receipt = await receive(w, [{ itemCode: "PREKE", quantity, unitCost }]);
    const got: string[] = [];
    for (const take of takes) {
      const op = await w.api.inventory.stock.writeOff({ warehouseCode: "CENTR", date: "2026-03-02", lines: [{ itemCode: "PREKE", quantity: take }] });
      got.push(op.movements[0].layers[0].value);
    }
    expect(got).toEqual(values);
    const total = values.reduce((s, v) => s + Math.round(Number(v) * 100), 0);
    expect(total).toBe(Math.round(Number(receipt.movements[0].value) * 100));
    expect(await layersValue(h, w.companyId)).toBe("0.00");
    expect(await accountBalance(h, w.companyId, "2040")).toBe("0.00");
  });

  test("an issue dated before a layer cannot take from it: not enough stock, naming item, warehouse and what is available", async () => {
    const w = await stockWorld(h);
    await receive(w, [{ itemCode: "PREKE", quantity: "1", unitCost: "2" }], { date: "2026-03-01" });
    await receive(w, [{ itemCode: "PREKE", quantity: "5", unitCost: "3" }], { date: "2026-03-20" });
    const before = await stockRows(w);
    const error = await expectApiError(
      w.api.inventory.stock.writeOff({ warehouseCode: "CENTR", date: "2026-03-10", lines: [{ itemCode: "PREKE", quantity: "2" }] }),
      422,
      "unprocessable",
      "inventory.insufficient_stock",
    );
    expect(error.params).toEqual({ itemCode: "PREKE", warehouseCode: "CENTR", available: "1", requested: "2" });
    expect(error.fieldErrors).toEqual({ "lines[0].quantity": ["only 1 of item PREKE in stock in warehouse CENTR on 2026-03-10"] });
    expect(await stockRows(w)).toEqual(before);
  });
});

describe("transfer", () => {
  test("layers move with their cost, lot, expiry and serial; nothing is posted; the ledger is unchanged", async () => {
    const w = await stockWorld(h);
    await receive(w, [
      { itemCode: "PREKE", quantity: "3", unitCost: "0.333333" },
      { itemCode: "PIENAS", quantity: "4", unitCost: "1.25", lotNumber: "L1", expiryDate: "2026-04-01" },
      { itemCode: "TELEF", quantity: "2", unitCost: "50", serials: ["S1", "S2"] },
    ]);
    const op = await w.api.inventory.stock.transfer({
      fromWarehouseCode: "CENTR",
      toWarehouseCode: "FILIAL",
      date: "2026-03-02",
      lines: [
        { itemCode: "TELEF", quantity: "1", serials: ["S2"] },
        { itemCode: "PREKE", quantity: "1" },
        { itemCode: "PIENAS", quantity: "1.5", lotNumber: "L1" },
      ],
    });
    expect(op.journalTransactionId).toBeNull();
    expect(op.movements.map((m: any) => [m.lineNo, m.warehouseCode, m.itemCode, m.quantity, m.value])).toEqual([
      // Taken in item order (the order layers are locked in); line 2n-1 out of the source, 2n into the destination.
      [5, "CENTR", "PIENAS", "-1.5", "-1.88"],
      [6, "FILIAL", "PIENAS", "1.5", "1.88"],
      [3, "CENTR", "PREKE", "-1", "-0.33"],
      [4, "FILIAL", "PREKE", "1", "0.33"],
      [1, "CENTR", "TELEF", "-1", "-50.00"],
      [2, "FILIAL", "TELEF", "1", "50.00"],
    ]);
    expect(await layerRows(h, w.companyId)).toEqual([
      ["PIENAS", "CENTR", "4", "2.5", "1.25", "5.00", "3.12", "L1", null],
      ["PIENAS", "FILIAL", "1.5", "1.5", "1.25", "1.88", "1.88", "L1", null],
      ["PREKE", "CENTR", "3", "2", "0.333333", "1.00", "0.67", null, null],
      ["PREKE", "FILIAL", "1", "1", "0.333333", "0.33", "0.33", null, null],
      ["TELEF", "CENTR", "1", "1", "50", "50.00", "50.00", null, "S1"],
      ["TELEF", "CENTR", "1", "0", "50", "50.00", "0.00", null, "S2"],
      ["TELEF", "FILIAL", "1", "1", "50", "50.00", "50.00", null, "S2"],
    ]);
    const moved = await h.db("stock_layers").where({ company_id: w.companyId, item_code: "PIENAS" }).whereNotNull("origin_layer_id").first();
    expect(moved.expiry_date).toBe("2026-04-01");
    expect(await accountBalance(h, w.companyId, "2040")).toBe(await layersValue(h, w.companyId));
  });

  test.each([
    { name: "to the same warehouse", body: { toWarehouseCode: "CENTR" }, status: 422, key: "inventory.same_warehouse" },
    { name: "to an unknown warehouse", body: { toWarehouseCode: "NERA" }, status: 422, key: "warehouse.unknown" },
    { name: "more than is in stock", body: { lines: [{ itemCode: "PREKE", quantity: "4" }] }, status: 422, key: "inventory.insufficient_stock" },
    {
      name: "a serial not in stock",
      body: { lines: [{ itemCode: "TELEF", quantity: "1", serials: ["NERA"] }] },
      status: 422,
      key: "inventory.serial_not_in_stock",
    },
    { name: "a lot not in stock", body: { lines: [{ itemCode: "PIENAS", quantity: "1", lotNumber: "L9" }] }, status: 422, key: "inventory.insufficient_stock" },
    {
      name: "a lot of an untracked item",
      body: { lines: [{ itemCode: "PREKE", quantity: "1", lotNumber: "L1" }] },
      status: 422,
      key: "inventory.lot_not_tracked",
    },
    { name: "half a serial unit", body: { lines: [{ itemCode: "TELEF", quantity: "0.5" }] }, status: 422, key: "inventory.serial_quantity" },
  ])("refuses a transfer $name, changing nothing", async ({ body, status, key }) => {
    const w = await stockWorld(h);
    await receive(w, [
      { itemCode: "PREKE", quantity: "3", unitCost: "1" },
      { itemCode: "PIENAS", quantity: "4", unitCost: "1.25", lotNumber: "L1" },
      { itemCode: "TELEF", quantity: "1", unitCost: "50", serials: ["S1"] },
    ]);
    const before = await stockRows(w);
    await expectApiError(
      w.api.inventory.stock.transfer({
        fromWarehouseCode: "CENTR",
        toWarehouseCode: "FILIAL",
        date: "2026-03-02",
        lines: [{ itemCode: "PREKE", quantity: "1" }],
        ...body,
      }),
      status,
      "unprocessable",
      key,
    );
    expect(await stockRows(w)).toEqual(before);
  });
});

describe("lots and serials", () => {
  test("an issue naming a lot takes FIFO within that lot; without one FIFO across lots; serials named are the ones taken", async () => {
    const w = await stockWorld(h);
    await receive(w, [{ itemCode: "PIENAS", quantity: "2", unitCost: "1", lotNumber: "A" }], { date: "2026-03-01" });
    await receive(w, [{ itemCode: "PIENAS", quantity: "2", unitCost: "2", lotNumber: "B" }], { date: "2026-03-02" });
    await receive(w, [{ itemCode: "PIENAS", quantity: "2", unitCost: "3", lotNumber: "A" }], { date: "2026-03-03" });
    await receive(w, [{ itemCode: "TELEF", quantity: "3", unitCost: "10", serials: ["T1", "T2", "T3"] }], { date: "2026-03-01" });
    const byLot = await w.api.inventory.stock.writeOff({
      warehouseCode: "CENTR",
      date: "2026-03-05",
      lines: [{ itemCode: "PIENAS", quantity: "3", lotNumber: "A" }],
    });
    expect(byLot.movements[0].layers.map((p: any) => [p.lotNumber, p.quantity, p.value])).toEqual([
      ["A", "2", "2.00"],
      ["A", "1", "3.00"],
    ]);
    const anyLot = await w.api.inventory.stock.writeOff({ warehouseCode: "CENTR", date: "2026-03-05", lines: [{ itemCode: "PIENAS", quantity: "2.5" }] });
    expect(anyLot.movements[0].layers.map((p: any) => [p.lotNumber, p.quantity, p.value])).toEqual([
      ["B", "2", "4.00"],
      ["A", "0.5", "1.50"],
    ]);
    const serial = await w.api.inventory.stock.writeOff({
      warehouseCode: "CENTR",
      date: "2026-03-05",
      lines: [{ itemCode: "TELEF", quantity: "2", serials: ["T3", "T1"] }],
    });
    expect(serial.movements[0].layers.map((p: any) => p.serialNumber).sort()).toEqual(["T1", "T3"]);
    const fifo = await w.api.inventory.stock.writeOff({ warehouseCode: "CENTR", date: "2026-03-05", lines: [{ itemCode: "TELEF", quantity: "1" }] });
    expect(fifo.movements[0].layers.map((p: any) => p.serialNumber)).toEqual(["T2"]);
    // A serial that left stock may be received again (a return).
    await receive(w, [{ itemCode: "TELEF", quantity: "1", unitCost: "10", serials: ["T1"] }], { date: "2026-03-06" });
  });
});

describe("stock take", () => {
  test("a shortage is written off FIFO and a surplus starts a layer, in one posting; matching lines move nothing", async () => {
    const w = await stockWorld(h);
    await receive(w, [
      { itemCode: "PREKE", quantity: "10", unitCost: "2.5" },
      { itemCode: "PIENAS", quantity: "4", unitCost: "1.25", lotNumber: "L1" },
    ]);
    await receive(w, [{ itemCode: "PREKE", quantity: "5", unitCost: "3" }], { date: "2026-03-20" });
    const take = await w.api.inventory.stock.take({
      warehouseCode: "CENTR",
      date: "2026-03-15",
      lines: [
        { itemCode: "PREKE", countedQuantity: "7" },
        { itemCode: "PIENAS", lotNumber: "L1", countedQuantity: "4.5" },
      ],
    });
    // The layer of 2026-03-20 is not counted on 2026-03-15.
    expect(take.counts).toEqual([
      { itemCode: "PREKE", lotNumber: null, expectedQuantity: "10", countedQuantity: "7", difference: "-3" },
      { itemCode: "PIENAS", lotNumber: "L1", expectedQuantity: "4", countedQuantity: "4.5", difference: "0.5" },
    ]);
    expect(take.movements.map((m: any) => [m.itemCode, m.quantity, m.value])).toEqual([
      ["PIENAS", "0.5", "0.63"],
      ["PREKE", "-3", "-7.50"],
    ]);
    expect(await journalLines(h, w.companyId, take.journalTransactionId)).toEqual([
      ["63091", "7.50", "0.00"],
      ["2040", "0.00", "7.50"],
      ["2040", "0.63", "0.00"],
      ["5401", "0.00", "0.63"],
    ]);
    expect(await accountBalance(h, w.companyId, "2040")).toBe(await layersValue(h, w.companyId));
    const nothing = await w.api.inventory.stock.take({ warehouseCode: "CENTR", date: "2026-03-15", lines: [{ itemCode: "PREKE", countedQuantity: "7" }] });
    expect([nothing.movements, nothing.journalTransactionId, nothing.counts[0].difference]).toEqual([[], null, "0"]);
  });

  test("a surplus of an item never received takes its purchase price, else needs unitCost; serial items are not counted", async () => {
    const w = await stockWorld(h);
    const take = await w.api.inventory.stock.take({
      warehouseCode: "FILIAL",
      date: "2026-03-15",
      surplusAccountCode: "6000",
      lines: [{ itemCode: "PREKE", countedQuantity: "2" }],
    });
    expect(await journalLines(h, w.companyId, take.journalTransactionId)).toEqual([
      ["2040", "8.00", "0.00"],
      ["6000", "0.00", "8.00"],
    ]);
    const noCost = await expectApiError(
      w.api.inventory.stock.take({ warehouseCode: "FILIAL", date: "2026-03-15", lines: [{ itemCode: "PIENAS", lotNumber: "X", countedQuantity: "1" }] }),
      422,
      "unprocessable",
      "inventory.surplus_cost_unknown",
    );
    expect(Object.keys(noCost.fieldErrors ?? {})).toEqual(["lines[0].unitCost"]);
    await expectApiError(
      w.api.inventory.stock.take({ warehouseCode: "FILIAL", date: "2026-03-15", lines: [{ itemCode: "TELEF", countedQuantity: "1" }] }),
      422,
      "unprocessable",
      "inventory.count_serial",
    );
    await expectApiError(
      w.api.inventory.stock.take({
        warehouseCode: "FILIAL",
        date: "2026-03-15",
        lines: [
          { itemCode: "PREKE", countedQuantity: "1" },
          { itemCode: "PREKE", countedQuantity: "2" },
        ],
      }),
      422,
      "unprocessable",
      "inventory.count_repeated",
    );
    await expectApiError(
      w.api.inventory.stock.take({
        warehouseCode: "FILIAL",
        date: "2026-03-15",
        surplusAccountCode: "2040",
        lines: [{ itemCode: "PREKE", countedQuantity: "1" }],
      }),
      422,
      "unprocessable",
      "inventory.account_invalid",
    );
    expect(await h.db("stock_operations").where({ company_id: w.companyId })).toHaveLength(1);
  });
});

describe("stock take dated before later movements (a count entered after the fact)", () => {
  // PREKE in CENTR: 10 at 2.50 received on 03-01, 4 written off on 03-20, 1 at 9.00 received on 03-25; the count is
  // dated 03-15, when 10 were in stock. Before, the count compared with what is left today of the layers dated on or
  // before it (6), so a correct count of 10 found a false surplus of 4.
  async function history(w: StockWorld) {
    await receive(w, [{ itemCode: "PREKE", quantity: "10", unitCost: "2.5" }], { date: "2026-03-01" });
    await w.api.inventory.stock.writeOff({ warehouseCode: "CENTR", date: "2026-03-20", lines: [{ itemCode: "PREKE", quantity: "4" }] });
    await receive(w, [{ itemCode: "PREKE", quantity: "1", unitCost: "9" }], { date: "2026-03-25" });
  }
  const level = async (w: StockWorld, asOf: string) => (await w.api.inventory.stock.levels({ asOf })).rows.map((r) => [r.itemCode, r.quantity, r.value]);

  test.each([
    {
      name: "a count of what was there finds nothing: no movement, no posting",
      counted: "10",
      count: { expectedQuantity: "10", difference: "0" },
      movements: [],
      journal: null,
      layers: [
        ["PREKE", "CENTR", "10", "6", "2.5", "25.00", "15.00", null, null],
        ["PREKE", "CENTR", "1", "1", "9", "9.00", "9.00", null, null],
      ],
      onTheDay: [["PREKE", "10", "25.00"]],
      atTheEnd: [["PREKE", "7", "24.00"]],
    },
    {
      name: "a shortage is written off FIFO on the count's date",
      counted: "7",
      count: { expectedQuantity: "10", difference: "-3" },
      movements: [["PREKE", "-3", "-7.50"]],
      journal: [
        ["63091", "7.50", "0.00"],
        ["2040", "0.00", "7.50"],
      ],
      layers: [
        ["PREKE", "CENTR", "10", "3", "2.5", "25.00", "7.50", null, null],
        ["PREKE", "CENTR", "1", "1", "9", "9.00", "9.00", null, null],
      ],
      onTheDay: [["PREKE", "7", "17.50"]],
      atTheEnd: [["PREKE", "4", "16.50"]],
    },
    {
      // The surplus takes the cost of the newest layer dated on or before the count (2.50), not the later 9.00.
      name: "a surplus starts a layer on the count's date at the cost of that day",
      counted: "12",
      count: { expectedQuantity: "10", difference: "2" },
      movements: [["PREKE", "2", "5.00"]],
      journal: [
        ["2040", "5.00", "0.00"],
        ["5401", "0.00", "5.00"],
      ],
      layers: [
        ["PREKE", "CENTR", "10", "6", "2.5", "25.00", "15.00", null, null],
        ["PREKE", "CENTR", "2", "2", "2.5", "5.00", "5.00", null, null],
        ["PREKE", "CENTR", "1", "1", "9", "9.00", "9.00", null, null],
      ],
      onTheDay: [["PREKE", "12", "30.00"]],
      atTheEnd: [["PREKE", "9", "29.00"]],
    },
  ])("$name", async ({ counted, count, movements, journal, layers, onTheDay, atTheEnd }) => {
    const w = await stockWorld(h);
    await history(w);
    const take = await w.api.inventory.stock.take({ warehouseCode: "CENTR", date: "2026-03-15", lines: [{ itemCode: "PREKE", countedQuantity: counted }] });
    expect(take.counts).toEqual([{ itemCode: "PREKE", lotNumber: null, countedQuantity: counted, ...count }]);
    expect(take.movements.map((m) => [m.itemCode, m.quantity, m.value])).toEqual(movements);
    expect(take.date).toBe("2026-03-15");
    expect(await journalLines(h, w.companyId, take.journalTransactionId)).toEqual(journal);
    expect(await layerRows(h, w.companyId)).toEqual(layers);
    expect(await level(w, "2026-03-15")).toEqual(onTheDay);
    expect(await level(w, "2026-03-31")).toEqual(atTheEnd);
    expect(await accountBalance(h, w.companyId, "2040")).toBe(await layersValue(h, w.companyId));
  });

  test("a shortage that later movements have already taken is 409 inventory.shortage_taken_later, nothing stored", async () => {
    const w = await stockWorld(h);
    await history(w);
    const before = await stockSnapshot(h, w.companyId);
    // 10 were there on 03-15 and 3 are counted: 7 missing, but the write-off of 03-20 took 4 of the 10, leaving 6.
    const error = await expectApiError(
      w.api.inventory.stock.take({ warehouseCode: "CENTR", date: "2026-03-15", lines: [{ itemCode: "PREKE", countedQuantity: "3" }] }),
      409,
      "conflict",
      "inventory.shortage_taken_later",
    );
    expect(error.params).toEqual({ itemCode: "PREKE", warehouseCode: "CENTR", date: "2026-03-15", expected: "10", counted: "3", available: "6" });
    expect(await stockSnapshot(h, w.companyId)).toEqual(before);
  });

  test("per lot: what the lot held on the date, its later issues added back", async () => {
    const w = await stockWorld(h);
    await receive(w, [{ itemCode: "PIENAS", quantity: "4", unitCost: "1.25", lotNumber: "L1" }], { date: "2026-03-01" });
    await receive(w, [{ itemCode: "PIENAS", quantity: "2", unitCost: "1.5", lotNumber: "L2" }], { date: "2026-03-01" });
    await w.api.inventory.stock.writeOff({ warehouseCode: "CENTR", date: "2026-03-10", lines: [{ itemCode: "PIENAS", quantity: "0.5", lotNumber: "L1" }] });
    await w.api.inventory.stock.writeOff({ warehouseCode: "CENTR", date: "2026-03-20", lines: [{ itemCode: "PIENAS", quantity: "1.5", lotNumber: "L1" }] });
    const take = await w.api.inventory.stock.take({
      warehouseCode: "CENTR",
      date: "2026-03-15",
      lines: [
        { itemCode: "PIENAS", lotNumber: "L1", countedQuantity: "3.5" },
        { itemCode: "PIENAS", lotNumber: "L2", countedQuantity: "2" },
      ],
    });
    expect(take.counts.map((c) => [c.lotNumber, c.expectedQuantity, c.difference])).toEqual([
      ["L1", "3.5", "0"],
      ["L2", "2", "0"],
    ]);
    expect([take.movements, take.journalTransactionId]).toEqual([[], null]);
  });
});

describe("locked months", () => {
  // 2026-03 is locked; the stock was received in February. Each operation is dated in March, and none of these
  // posts anything, so only the stock's own check stands between them and the locked month's history.
  const operations: { name: string; send: (w: StockWorld) => Promise<unknown> }[] = [
    {
      name: "a receipt without a counter account",
      send: (w) => w.api.inventory.stock.receive({ warehouseCode: "CENTR", date: "2026-03-05", lines: [{ itemCode: "PREKE", quantity: "1", unitCost: "4" }] }),
    },
    {
      name: "a transfer",
      send: (w) =>
        w.api.inventory.stock.transfer({
          fromWarehouseCode: "CENTR",
          toWarehouseCode: "FILIAL",
          date: "2026-03-05",
          lines: [{ itemCode: "PREKE", quantity: "1" }],
        }),
    },
    {
      name: "a write-off worth 0.00",
      send: (w) =>
        w.api.inventory.stock.writeOff({ warehouseCode: "CENTR", date: "2026-03-05", lines: [{ itemCode: "PIENAS", quantity: "1", lotNumber: "FREE" }] }),
    },
    {
      name: "a count that matches",
      send: (w) => w.api.inventory.stock.take({ warehouseCode: "CENTR", date: "2026-03-05", lines: [{ itemCode: "PREKE", countedQuantity: "2" }] }),
    },
    {
      name: "a count whose surplus is worth 0.00",
      send: (w) =>
        w.api.inventory.stock.take({
          warehouseCode: "CENTR",
          date: "2026-03-05",
          lines: [{ itemCode: "PIENAS", lotNumber: "FREE", countedQuantity: "3", unitCost: "0" }],
        }),
    },
    {
      name: "a receipt that posts",
      send: (w) =>
        w.api.inventory.stock.receive({
          warehouseCode: "CENTR",
          date: "2026-03-05",
          counterAccountCode: "4430",
          lines: [{ itemCode: "PREKE", quantity: "1", unitCost: "4" }],
        }),
    },
  ];
  test.each(operations)("$name dated in a locked month is 409 period.locked, nothing stored", async ({ send }) => {
    const w = await stockWorld(h);
    await w.api.inventory.stock.receive({
      warehouseCode: "CENTR",
      date: "2026-02-20",
      lines: [
        { itemCode: "PREKE", quantity: "2", unitCost: "4" },
        { itemCode: "PIENAS", quantity: "2", unitCost: "0", lotNumber: "FREE" },
      ],
    });
    await w.api.ledger.periods.lock({ month: "2026-03" });
    const before = await stockSnapshot(h, w.companyId);
    const error = await expectApiError(send(w), 409, "conflict", "period.locked");
    expect(error.params).toEqual({ month: "2026-03" });
    expect(await stockSnapshot(h, w.companyId)).toEqual(before);
  });
});

describe("not enough stock named also when a balance disagrees with its layers", () => {
  // A balance lowered to 1 behind the database's back (triggers off in this session) while its layer holds 5: the
  // layers let the take through, the balance does not. Before, the CHECK on the balance answered a bare 422 without
  // item, warehouse or quantity; now the answer names them like any other shortage.
  const takes: { name: string; send: (w: StockWorld) => Promise<unknown> }[] = [
    {
      name: "a write-off",
      send: (w) => w.api.inventory.stock.writeOff({ warehouseCode: "CENTR", date: "2026-03-05", lines: [{ itemCode: "PREKE", quantity: "3" }] }),
    },
    {
      name: "a transfer",
      send: (w) =>
        w.api.inventory.stock.transfer({
          fromWarehouseCode: "CENTR",
          toWarehouseCode: "FILIAL",
          date: "2026-03-05",
          lines: [{ itemCode: "PREKE", quantity: "3" }],
        }),
    },
    {
      name: "a sales invoice's issue (stock_take_fifo)",
      send: async (w) => {
        const draft = await w.api.sales.invoices.create({
          partnerCode: "PIRKEJAS",
          issueDate: "2026-03-05",
          lines: [{ itemCode: "PREKE", quantity: "3", unitPriceExclVat: "10", warehouseCode: "CENTR" }],
        });
        return w.api.sales.invoices.issue({ id: draft.id });
      },
    },
  ];
  test.each(takes)("$name: 422 inventory.insufficient_stock naming item, warehouse, available and requested", async ({ send }) => {
    const w = await stockWorld(h);
    await w.api.partners.create({ name: "Pirkėjas UAB", code: "PIRKEJAS" });
    await receive(w, [{ itemCode: "PREKE", quantity: "5", unitCost: "2" }]);
    await h.db.transaction(async (trx) => {
      await trx.raw("set local session_replication_role = replica");
      await trx("stock_balances").where({ company_id: w.companyId, item_code: "PREKE" }).update({ quantity: "1" });
    });
    const before = await stockSnapshot(h, w.companyId);
    const error = await expectApiError(send(w), 422, "unprocessable", "inventory.insufficient_stock");
    expect(error.params).toEqual({ itemCode: "PREKE", warehouseCode: "CENTR", available: "1", requested: "3" });
    expect(Object.keys(error.fieldErrors ?? {})).toEqual(["lines[0].quantity"]);
    expect(await stockSnapshot(h, w.companyId)).toEqual(before);
  });
});

describe("the database keeps the stock invariants", () => {
  test("a layer's origin never changes; balance and layers agree at commit; nothing is written into a locked month", async () => {
    const w = await stockWorld(h);
    await receive(w, [{ itemCode: "PREKE", quantity: "5", unitCost: "2" }]);
    const layer = await h.db("stock_layers").where({ company_id: w.companyId }).first();
    const pair = { company_id: w.companyId, item_code: "PREKE", warehouse_id: layer.warehouse_id };
    const before = await stockSnapshot(h, w.companyId);
    const inOneTransaction = (work: (trx: typeof h.db) => Promise<unknown>) => h.db.transaction(async (trx) => void (await work(trx)));
    const refused: [string, (trx: typeof h.db) => Promise<unknown>, RegExp][] = [
      ["a layer's quantity", (trx) => trx("stock_layers").where({ id: layer.id }).update({ quantity: "6" }), /stock_layers_frozen|origin/],
      ["a layer's unit cost", (trx) => trx("stock_layers").where({ id: layer.id }).update({ unit_cost: "3" }), /origin/],
      ["a layer's value", (trx) => trx("stock_layers").where({ id: layer.id }).update({ value: "11.00" }), /origin/],
      ["a layer's date", (trx) => trx("stock_layers").where({ id: layer.id }).update({ date: "2026-02-01" }), /origin/],
      ["a layer deleted", (trx) => trx("stock_layers").where({ id: layer.id }).delete(), /never deleted/],
      [
        "a layer lowered without its balance",
        (trx) => trx("stock_layers").where({ id: layer.id }).update({ remaining_quantity: "4", remaining_value: "8.00" }),
        /stock balance of item PREKE .* differs from its layers/,
      ],
      ["a balance raised without a layer", (trx) => trx("stock_balances").where(pair).update({ quantity: "6", value: "12.00" }), /differs from its layers/],
      ["a balance's value alone", (trx) => trx("stock_balances").where(pair).update({ value: "9.99" }), /differs from its layers/],
      [
        "a balance for a pair without layers",
        (trx) => trx("stock_balances").insert({ ...pair, item_code: "PIENAS", quantity: "1", value: "1.00" }),
        /differs from its layers/,
      ],
      // The layers' sums the check reads are the database's own (migration 20261126000200): written by nothing else.
      [
        "the layers' sums changed",
        (trx) => trx("stock_layer_sums").where(pair).update({ quantity: "6", value: "12.00" }),
        /kept by the triggers of stock_layers only/,
      ],
      [
        "the layers' sums and the balance raised together",
        async (trx) => {
          await trx("stock_balances").where(pair).update({ quantity: "6", value: "12.00" });
          await trx("stock_layer_sums").where(pair).update({ quantity: "6", value: "12.00" });
        },
        /kept by the triggers of stock_layers only/,
      ],
      ["the layers' sums deleted", (trx) => trx("stock_layer_sums").where(pair).delete(), /kept by the triggers of stock_layers only/],
    ];
    for (const [what, write, message] of refused) {
      expect([
        what,
        await inOneTransaction(write).then(
          () => "committed",
          (e: Error) => e.message,
        ),
      ]).toEqual([what, expect.stringMatching(message)]);
    }
    expect(await stockSnapshot(h, w.companyId)).toEqual(before);

    // Layer and balance moved together, in one transaction: the check is exact, not a blanket refusal.
    await inOneTransaction(async (trx) => {
      await trx("stock_layers").where({ id: layer.id }).update({ remaining_quantity: "4", remaining_value: "8.00" });
      await trx("stock_balances").where(pair).update({ quantity: "4", value: "8.00" });
    });
    expect(await layerRows(h, w.companyId)).toEqual([["PREKE", "CENTR", "5", "4", "2", "10.00", "8.00", null, null]]);

    await w.api.ledger.periods.lock({ month: "2026-04" });
    const locked = await h
      .db("stock_operations")
      .insert({ company_id: w.companyId, kind: "receipt", date: "2026-04-02", warehouse_id: layer.warehouse_id })
      .then(
        () => "committed",
        (e: Error) => e.message,
      );
    expect(locked).toMatch(/period 2026-04 .* is locked/);
  });
});

describe("levels and movements", () => {
  test("levels as of a date per item and warehouse (quantity, value, average cost) with totals; movements with signed totals", async () => {
    const w = await stockWorld(h);
    await receive(w, [{ itemCode: "PREKE", quantity: "3", unitCost: "0.333333" }], { date: "2026-03-01" });
    await receive(w, [{ itemCode: "PREKE", quantity: "2", unitCost: "5" }], { date: "2026-03-10" });
    await w.api.inventory.stock.transfer({
      fromWarehouseCode: "CENTR",
      toWarehouseCode: "FILIAL",
      date: "2026-03-11",
      lines: [{ itemCode: "PREKE", quantity: "4" }],
    });
    await w.api.inventory.stock.writeOff({ warehouseCode: "FILIAL", date: "2026-03-12", lines: [{ itemCode: "PREKE", quantity: "4" }] });
    const level = (asOf: string, extra: Record<string, unknown> = {}) => w.api.inventory.stock.levels({ asOf, totals: ["quantity", "value"], ...extra });
    const cases: [string, Record<string, unknown>, unknown[], Record<string, string>][] = [
      ["2026-02-28", {}, [], { quantity: "0", value: "0.00" }],
      ["2026-03-01", {}, [["PREKE", "CENTR", "3", "1.00", "0.333333"]], { quantity: "3", value: "1.00" }],
      ["2026-03-10", {}, [["PREKE", "CENTR", "5", "11.00", "2.200000"]], { quantity: "5", value: "11.00" }],
      [
        "2026-03-11",
        {},
        [
          ["PREKE", "CENTR", "1", "5.00", "5.000000"],
          ["PREKE", "FILIAL", "4", "6.00", "1.500000"],
        ],
        { quantity: "5", value: "11.00" },
      ],
      ["2026-03-12", {}, [["PREKE", "CENTR", "1", "5.00", "5.000000"]], { quantity: "1", value: "5.00" }],
      [
        "2026-03-12",
        { includeZero: true },
        [
          ["PREKE", "CENTR", "1", "5.00", "5.000000"],
          ["PREKE", "FILIAL", "0", "0.00", null],
        ],
        { quantity: "1", value: "5.00" },
      ],
      [
        "2026-03-11",
        { filter: [{ field: "warehouseCode", op: "eq", value: "FILIAL" }] },
        [["PREKE", "FILIAL", "4", "6.00", "1.500000"]],
        { quantity: "4", value: "6.00" },
      ],
    ];
    for (const [asOf, extra, rows, totals] of cases) {
      const res = await level(asOf, extra);
      expect([asOf, res.rows.map((r: any) => [r.itemCode, r.warehouseCode, r.quantity, r.value, r.averageUnitCost]), res.totals]).toEqual([asOf, rows, totals]);
    }
    expect((await level("2026-12-31")).rows.map((r: any) => [r.itemCode, r.itemName, r.quantity])).toEqual([["PREKE", "Prekė", "1"]]);

    const movements = await w.api.inventory.stock.movements.list({ totals: ["quantity", "value"], sort: [{ field: "date", dir: "asc" }] });
    expect(movements.rows.map((m: any) => [m.date, m.kind, m.warehouseCode, m.quantity, m.value])).toEqual([
      ["2026-03-01", "receipt", "CENTR", "3", "1.00"],
      ["2026-03-10", "receipt", "CENTR", "2", "10.00"],
      ["2026-03-11", "transfer", "CENTR", "-4", "-6.00"],
      ["2026-03-11", "transfer", "FILIAL", "4", "6.00"],
      ["2026-03-12", "write_off", "FILIAL", "-4", "-6.00"],
    ]);
    expect(movements.totals).toEqual({ quantity: "1", value: "5.00" });
    const out = await w.api.inventory.stock.movements.list({
      filter: [
        { field: "direction", op: "eq", value: "out" },
        { field: "warehouseCode", op: "eq", value: "FILIAL" },
      ],
      totals: ["value"],
    });
    expect([out.total, out.totals, out.rows[0].layers.map((p: any) => [p.quantity, p.value])]).toEqual([
      1,
      { value: "-6.00" },
      [
        ["3", "1.00"],
        ["1", "5.00"],
      ],
    ]);
    // A field a list does not take is refused by the contract's enums (issue 14), naming the element.
    const badFilter = await expectApiError(
      w.api.inventory.stock.movements.list(invalid({ filter: [{ field: "nera", op: "eq", value: "x" }] })),
      400,
      "validation",
      "request.invalid",
    );
    expect(Object.keys(badFilter.fieldErrors ?? {})).toContain("filter[0].field");
    const badSort = await expectApiError(w.api.inventory.stock.levels(invalid({ sort: [{ field: "averageUnitCost" }] })), 400, "validation", "request.invalid");
    expect(Object.keys(badSort.fieldErrors ?? {})).toContain("sort[0].field");
  });

  test("levels without asOf: at the end of today in Vilnius (the database's date), not counting tomorrow's receipt", async () => {
    const w = await stockWorld(h);
    const { rows } = await h.db.raw(`select to_char((now() at time zone 'Europe/Vilnius')::date, 'YYYY-MM-DD') as today,
                                            to_char((now() at time zone 'Europe/Vilnius')::date + 1, 'YYYY-MM-DD') as tomorrow`);
    const { today, tomorrow } = rows[0];
    await w.api.inventory.stock.receive({ warehouseCode: "CENTR", date: today, lines: [{ itemCode: "PREKE", quantity: "2", unitCost: "4" }] });
    await w.api.inventory.stock.receive({ warehouseCode: "CENTR", date: tomorrow, lines: [{ itemCode: "PREKE", quantity: "5", unitCost: "4" }] });
    const levels = await w.api.inventory.stock.levels({});
    expect(levels.rows.map((r) => [r.itemCode, r.quantity, r.value])).toEqual([["PREKE", "2", "8.00"]]);
    expect(await w.api.inventory.stock.levels({ asOf: today })).toEqual(levels);
  });
});

describe("figures that add up beyond the columns: 422, nothing stored", () => {
  // Issue 22, item 5: an item's stock in a warehouse stays within the contract's Quantity (12 integer digits) and
  // Money (15) on every date, or `inventory/stock/levels` would answer what its own contract forbids (receipts of
  // 999,999,999,999.9999 units were accepted and added up to 13 digits). Whatever would bring it beyond them —
  // a receipt, a transfer's destination, a count's surplus, a back-dated receipt under a later write-off, a purchase
  // invoice, a books import — is 422 inventory.value_too_large naming the line, and nothing is stored.
  const M = "999999999999999.99";
  const Q = "999999999999.9999";
  const tooLarge = (call: Promise<unknown>) => expectApiError(call, 422, "unprocessable", "inventory.value_too_large");

  const beyond: {
    name: string;
    before: (w: StockWorld) => Promise<unknown>;
    send: (w: StockWorld) => Promise<unknown>;
    field: string;
    warehouse?: string;
    quantity: string;
    value: string;
  }[] = [
    {
      name: "a receipt onto the largest quantity (the issue's 999,999,999,999.9999 units, twice)",
      before: (w) => receive(w, [{ itemCode: "PREKE", quantity: Q, unitCost: "0" }]),
      send: (w) => w.api.inventory.stock.receive({ warehouseCode: "CENTR", date: "2026-03-02", lines: [{ itemCode: "PREKE", quantity: Q, unitCost: "0" }] }),
      field: "lines[0].quantity",
      quantity: "1999999999999.9998",
      value: "0.00",
    },
    {
      name: "two lines of one receipt adding up beyond the largest quantity (the last of them is named)",
      before: async () => undefined,
      send: (w) =>
        w.api.inventory.stock.receive({
          warehouseCode: "CENTR",
          date: "2026-03-02",
          lines: [
            { itemCode: "PREKE", quantity: Q, unitCost: "0" },
            { itemCode: "PIENAS", quantity: "1", unitCost: "1", lotNumber: "L" },
            { itemCode: "PREKE", quantity: "0.0001", unitCost: "0" },
          ],
        }),
      field: "lines[2].quantity",
      quantity: "1000000000000",
      value: "0.00",
    },
    {
      name: "a receipt of one cent onto the largest value",
      before: (w) => receive(w, [{ itemCode: "PREKE", quantity: "1", unitCost: M }]),
      send: (w) =>
        w.api.inventory.stock.receive({
          warehouseCode: "CENTR",
          date: "2026-03-02",
          counterAccountCode: "4430",
          lines: [{ itemCode: "PREKE", quantity: "1", unitCost: "0.01" }],
        }),
      field: "lines[0].quantity",
      quantity: "2",
      value: "1000000000000000.00",
    },
    {
      name: "a transfer into a warehouse holding the largest value",
      before: async (w) => {
        await receive(w, [{ itemCode: "PREKE", quantity: "1", unitCost: M }]);
        await receive(w, [{ itemCode: "PREKE", quantity: "1", unitCost: "1" }], { warehouseCode: "FILIAL" });
      },
      send: (w) =>
        w.api.inventory.stock.transfer({
          fromWarehouseCode: "FILIAL",
          toWarehouseCode: "CENTR",
          date: "2026-03-02",
          lines: [{ itemCode: "PREKE", quantity: "1" }],
        }),
      field: "lines[0].quantity",
      quantity: "2",
      value: "1000000000000000.99",
    },
    {
      name: "a count's surplus onto the largest value",
      before: (w) => receive(w, [{ itemCode: "PREKE", quantity: "1", unitCost: M }]),
      send: (w) =>
        w.api.inventory.stock.take({ warehouseCode: "CENTR", date: "2026-03-05", lines: [{ itemCode: "PREKE", countedQuantity: "2", unitCost: "1" }] }),
      field: "lines[0].countedQuantity",
      quantity: "2",
      value: "1000000000000000.99",
    },
    {
      name: "a receipt dated before a write-off: today's level fits, the level of the days between would not",
      before: async (w) => {
        await receive(w, [{ itemCode: "PREKE", quantity: Q, unitCost: "0" }]);
        await w.api.inventory.stock.writeOff({ warehouseCode: "CENTR", date: "2026-03-10", lines: [{ itemCode: "PREKE", quantity: Q }] });
      },
      send: (w) => w.api.inventory.stock.receive({ warehouseCode: "CENTR", date: "2026-03-05", lines: [{ itemCode: "PREKE", quantity: Q, unitCost: "0" }] }),
      field: "lines[0].quantity",
      quantity: "1999999999999.9998",
      value: "0.00",
    },
    {
      name: "a purchase invoice received into a warehouse holding the largest quantity",
      before: async (w) => {
        await receive(w, [{ itemCode: "PREKE", quantity: Q, unitCost: "0" }]);
        await w.api.partners.create({ name: "Tiekėjas UAB", code: "TIEKEJAS", isCustomer: false, isSupplier: true });
      },
      send: async (w) => {
        const draft = await w.api.purchases.invoices.create({
          partnerCode: "TIEKEJAS",
          documentNumber: "PR-1",
          documentDate: "2026-03-02",
          lines: [{ itemCode: "PREKE", quantity: "1", unitPriceExclVat: "4", warehouseCode: "CENTR" }],
        });
        return w.api.purchases.invoices.register({ id: draft.id });
      },
      field: "lines[0].quantity",
      quantity: "1000000000000.9999",
      value: "4.00",
    },
  ];
  test.each(beyond)("$name", async ({ before, send, field, quantity, value }) => {
    const w = await stockWorld(h);
    await before(w);
    const snapshot = await stockSnapshot(h, w.companyId);
    const levels = await w.api.inventory.stock.levels({ asOf: "2026-03-07" });
    const error = await tooLarge(send(w));
    expect(Object.keys(error.fieldErrors ?? {})).toEqual([field]);
    expect(error.params).toEqual({ itemCode: "PREKE", warehouseCode: "CENTR", quantity, value, maxQuantity: Q, maxValue: M });
    expect(await stockSnapshot(h, w.companyId)).toEqual(snapshot);
    expect(await w.api.inventory.stock.levels({ asOf: "2026-03-07" })).toEqual(levels);
  });

  test("up to the bounds: levels answer the largest quantity and value, and an average cost beyond a unit price's digits, within the contract", async () => {
    const w = await stockWorld(h);
    await receive(w, [{ itemCode: "PREKE", quantity: "999999999999", unitCost: "0" }]);
    await receive(w, [{ itemCode: "PREKE", quantity: "0.9999", unitCost: "0" }], { date: "2026-03-02" });
    await receive(w, [{ itemCode: "PREKE", quantity: "1", unitCost: "999999999999999.98" }], { warehouseCode: "FILIAL" });
    await receive(w, [{ itemCode: "PREKE", quantity: "1", unitCost: "0.01" }], { warehouseCode: "FILIAL" });
    // 0.0001 units worth 100,000,000,000.00: 10^15 per unit, 16 integer digits (a `UnitPrice` holds 15).
    await receive(w, [{ itemCode: "PIENAS", quantity: "0.0001", unitCost: "999999999999999.99", lotNumber: "L" }]);
    const levels = await w.api.inventory.stock.levels({ totals: ["quantity", "value"] });
    expect(levels.rows.map((r) => [r.itemCode, r.warehouseCode, r.quantity, r.value, r.averageUnitCost])).toEqual([
      ["PIENAS", "CENTR", "0.0001", "100000000000.00", "1000000000000000.000000"],
      ["PREKE", "CENTR", Q, "0.00", "0.000000"],
      ["PREKE", "FILIAL", "2", M, "499999999999999.995000"],
    ]);
    // Totals add up every row: they may pass a single row's digits (the contract's totals are decimal strings).
    expect(levels.totals).toEqual({ quantity: "1000000000002", value: "1000099999999999.99" });
    const earlier = await w.api.inventory.stock.levels({ asOf: "2026-03-01", filter: [{ field: "warehouseCode", op: "eq", value: "CENTR" }] });
    expect(earlier.rows.map((r) => [r.itemCode, r.quantity])).toEqual([
      ["PIENAS", "0.0001"],
      ["PREKE", "999999999999"],
    ]);
  });

  test("a books import adding to a balance beyond its bounds is 422; within them it goes in", async () => {
    const w = await stockWorld(h);
    await receive(w, [{ itemCode: "PREKE", quantity: "1", unitCost: M }]);
    const before = await stockSnapshot(h, w.companyId);
    await tooLarge(
      w.api.migration.books.import({
        cutoverDate: "2026-07-01",
        stock: [{ itemCode: "PREKE", quantity: "1", unitCost: "0.01", warehouseCode: "CENTR" }],
      }),
    );
    expect(await stockSnapshot(h, w.companyId)).toEqual(before);
    await w.api.migration.books.import({
      cutoverDate: "2026-07-01",
      stock: [{ itemCode: "PREKE", quantity: "1", unitCost: "0.01", warehouseCode: "FILIAL" }],
    });
    expect(await layerRows(h, w.companyId)).toContainEqual(["PREKE", "FILIAL", "1", "1", "0.01", "0.01", "0.01", null, null]);
  });
});

describe("concurrency", () => {
  test("two write-offs of the last unit sent at once: one succeeds, the other is 422; the layer ends at 0", async () => {
    const w = await stockWorld(h);
    await receive(w, [{ itemCode: "PREKE", quantity: "1", unitCost: "2" }]);
    // Hold the layer so that both requests are surely in flight together, waiting on it; then let go.
    const blocker = new pg.Client({ connectionString: h.connectionString });
    await blocker.connect();
    let requests: ReturnType<typeof settle<unknown>>[];
    try {
      await blocker.query("begin");
      await blocker.query("select 1 from stock_layers where company_id = $1 for update", [w.companyId]);
      requests = [1, 2].map(() =>
        settle<unknown>(w.api.inventory.stock.writeOff({ warehouseCode: "CENTR", date: "2026-03-02", lines: [{ itemCode: "PREKE", quantity: "1" }] })),
      );
      // The first waits on the blocker's transaction, the second on the row's tuple lock behind it.
      await waitForLockWaiters(h.db, { count: 2, excludePid: (blocker as any).processID, what: "the two write-offs waiting on the layer" });
    } finally {
      await blocker.query("commit");
      await blocker.end();
    }
    const results = await Promise.all(requests);
    expect(results.map((r) => r.status).sort()).toEqual([200, 422]);
    const refused = results.find((r) => r.status === 422)?.error;
    expect([refused?.code, refused?.key, refused?.params?.available]).toEqual(["unprocessable", "inventory.insufficient_stock", "0"]);
    expect(await layerRows(h, w.companyId)).toEqual([["PREKE", "CENTR", "1", "0", "2", "2.00", "0.00", null, null]]);
    expect(await h.db("stock_consumptions").where({ company_id: w.companyId })).toHaveLength(1);
    expect(await accountBalance(h, w.companyId, "2040")).toBe("0.00");
  });
});

describe("concurrent counts", () => {
  test("two counts of an item with no stock sent at once: the first brings the surplus in, the second finds it there", async () => {
    const w = await stockWorld(h);
    const count = () =>
      settle(w.api.inventory.stock.take({ warehouseCode: "CENTR", date: "2026-03-05", lines: [{ itemCode: "PREKE", countedQuantity: "5", unitCost: "2" }] }));
    const warehouse = await h.db("warehouses").where({ company_id: w.companyId, code: "CENTR" }).first("id");
    // Hold the item's count lock, so that both counts are surely in flight together before either reads the stock.
    const blocker = new pg.Client({ connectionString: h.connectionString });
    await blocker.connect();
    let requests: ReturnType<typeof count>[];
    try {
      await blocker.query("begin");
      await blocker.query("select pg_advisory_xact_lock(hashtextextended('stock_take:' || $1::text || ':' || $2::text || ':' || 'PREKE', 0))", [
        w.companyId,
        warehouse.id,
      ]);
      requests = [count(), count()];
      await waitForLockWaiters(h.db, { count: 2, excludePid: (blocker as any).processID, what: "the two counts waiting on the item" });
    } finally {
      await blocker.query("commit");
      await blocker.end();
    }
    const results = await Promise.all(requests);
    expect(results.map((r) => r.status)).toEqual([200, 200]);
    const differences = results.map((r) => r.data?.counts[0].difference).sort();
    expect(differences).toEqual(["0", "5"]);
    expect(await layerRows(h, w.companyId)).toEqual([["PREKE", "CENTR", "5", "5", "2", "10.00", "10.00", null, null]]);
    expect(await accountBalance(h, w.companyId, "2040")).toBe("10.00");
  });
});

describe("tenancy and scopes", () => {
  test("another account's warehouse is 404; its codes mean nothing here; its stock never shows", async () => {
    const w = await stockWorld(h);
    const other = await stockWorld(h);
    await receive(other, [{ itemCode: "PREKE", quantity: "5", unitCost: "1" }]);
    const theirs = await other.api.inventory.warehouses.get({ code: "CENTR" });
    await expectApiError(w.api.inventory.warehouses.get({ id: theirs.id }), 404, "not_found", "warehouse.not_found");
    await expectApiError(w.api.inventory.warehouses.update({ id: theirs.id, name: "Mano" }), 404, "not_found", "warehouse.not_found");
    expect((await h.db("warehouses").where({ id: theirs.id }).first()).name).toBe("Centrinis sandėlis");
    await expectApiError(
      w.api.inventory.stock.writeOff({ warehouseCode: "CENTR", date: "2026-03-02", lines: [{ itemCode: "PREKE", quantity: "1" }] }),
      422,
      "unprocessable",
      "inventory.insufficient_stock",
    );
    expect((await w.api.inventory.stock.levels({})).rows).toEqual([]);
    expect((await w.api.inventory.stock.movements.list({})).rows).toEqual([]);
    expect((await w.api.inventory.warehouses.list({ filter: [{ field: "id", op: "eq", value: theirs.id }] })).rows).toEqual([]);
    expect(await layerRows(h, other.companyId)).toEqual([["PREKE", "CENTR", "5", "5", "1", "5.00", "5.00", null, null]]);
  });

  test("inventory:read reads but cannot write (403); other modules' keys reach nothing", async () => {
    const w = await stockWorld(h);
    const scoped = { companyId: w.companyId };
    const read = (await keyWith(h, w.apiKey, ["inventory:read"], { name: "r", ...scoped })).api;
    const write = (await keyWith(h, w.apiKey, ["inventory:write"], { name: "w", ...scoped })).api;
    const sales = (await keyWith(h, w.apiKey, ["sales:write"], { name: "s", ...scoped })).api;
    const receiveBody: ReceiveBody = { warehouseCode: "CENTR", date: "2026-03-01", lines: [{ itemCode: "PREKE", quantity: "1", unitCost: "1" }] };
    expect((await read.inventory.stock.levels({})).rows).toEqual([]);
    expect((await read.inventory.stock.movements.list({})).rows).toEqual([]);
    expect((await read.inventory.warehouses.list({})).rows.map((r) => r.code)).toEqual(["CENTR", "FILIAL"]);
    await expectApiError(read.inventory.stock.receive(receiveBody), 403, "forbidden");
    await expectApiError(read.inventory.warehouses.create({ code: "X", name: "X" }), 403, "forbidden");
    await expectApiError(sales.inventory.stock.levels({}), 403, "forbidden");
    expect(await h.db("stock_operations").where({ company_id: w.companyId })).toEqual([]);
    expect(await h.db("warehouses").where({ company_id: w.companyId, code: "X" })).toEqual([]);
    const received = await write.inventory.stock.receive(receiveBody);
    expect(await h.db("stock_operations").where({ company_id: w.companyId }).pluck("id")).toEqual([received.id]);
    expect((await write.inventory.stock.levels({})).rows.map((r) => [r.itemCode, r.quantity])).toEqual([["PREKE", "1"]]);
  });
});
