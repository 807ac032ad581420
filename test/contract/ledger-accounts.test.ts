// ledger/accounts: the lt-standard template, create, get, list and update of the chart of accounts, the
// hierarchy rules (parents are never postable, children share the parent's type, no cycles) and the rules that
// protect accounts with postings. Every case checks the answer and the rows in ledger_accounts.
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { startHarness, type Harness } from "../support/harness.js";
import { expectApiError, invalid, settle } from "../support/expect.js";
import type { RequestBody } from "../../sdk/typescript/src/index.js";
import { world, type World } from "../support/world.js";
import { UUID, ISO_INSTANT as ISO } from "../support/patterns.js";
import { sleep } from "../support/timing.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

type CreateBody = RequestBody<"ledger_accounts_create">;

const TEMPLATE_SIZE = 372; // the AVNT sample chart as lt-standard carries it (test/contract/lt-chart.test.ts checks its content)
const CLASS_TYPE: Record<string, string> = { "1": "asset", "2": "asset", "3": "equity", "4": "liability", "5": "income", "6": "expense" };

/** A tenant without a chart: the suite applies the template or builds its own. */
const accountsWorld = () => world(h, { chart: false });

const rowsOf = (companyId: string) => h.db("ledger_accounts").where({ company_id: companyId }).orderBy("code");
const rowOf = (companyId: string, code: string) => h.db("ledger_accounts").where({ company_id: companyId, code }).first();

describe("apply-template lt-standard", () => {
  let w: World;
  beforeAll(async () => {
    w = await accountsWorld();
  });

  test("creates the whole chart once, then is idempotent", async () => {
    expect(await w.api.ledger.accounts.applyTemplate({ template: "lt-standard" })).toMatchObject({
      template: "lt-standard",
      created: TEMPLATE_SIZE,
      existing: 0,
    });
    expect(await rowsOf(w.companyId)).toHaveLength(TEMPLATE_SIZE);
    const before = await rowsOf(w.companyId);
    expect(await w.api.ledger.accounts.applyTemplate({ template: "lt-standard" })).toMatchObject({
      template: "lt-standard",
      created: 0,
      existing: TEMPLATE_SIZE,
    });
    expect(await rowsOf(w.companyId)).toEqual(before);
  });

  test.each([
    ["2410", "asset", "241"],
    ["4430", "liability", "443"],
    ["2040", "asset", "204"],
    ["6206", "expense", "62"],
    ["2441", "asset", "244"],
    ["4492", "liability", "449"],
    ["2710", "asset", "271"],
    ["2720", "asset", "272"],
    ["3010", "equity", "301"],
    ["3411", "equity", "341"],
    ["3421", "equity", "342"],
    ["5000", "income", "500"],
    ["6000", "expense", "600"],
    ["5803", "income", "58"],
    ["6803", "expense", "68"],
    ["1217", "asset", "121"],
    ["1227", "asset", "122"],
    ["1237", "asset", "123"],
    ["1247", "asset", "124"],
    ["999", "equity", null],
  ])("default account %s exists, is a postable %s under %s with LT and EN names", async (code, type, parentCode) => {
    const res = await w.api.ledger.accounts.get({ code });
    expect(res).toMatchObject({ code, type, isPostable: true, parentCode });
    expect(res.name).toMatch(/\S/);
    expect(res.nameEn).toMatch(/\S/);
    expect(res.nameEn).not.toBe(res.name);
    expect(await rowOf(w.companyId, code)).toMatchObject({ id: res.id, type, is_postable: true, name: res.name, name_en: res.nameEn });
  });

  test("every account has an LT and an EN name", async () => {
    const missing = (await rowsOf(w.companyId)).filter((r) => !/\S/.test(r.name ?? "") || !/\S/.test(r.name_en ?? ""));
    expect(missing.map((r) => r.code)).toEqual([]);
  });

  test("headers (accounts with sub-accounts, and every 1- and 2-digit code) are not postable; leaves are", async () => {
    const rows = await rowsOf(w.companyId);
    const parents = new Set(rows.map((r) => r.parent_code).filter(Boolean));
    const wrong = rows.filter((r) => r.is_postable === parents.has(r.code) || (r.code.length <= 2 && r.is_postable));
    expect(wrong.map((r) => r.code)).toEqual([]);
    expect(rows.filter((r) => r.code.length <= 2).length).toBeGreaterThan(20);
    // Every parent exists in the chart.
    const codes = new Set(rows.map((r) => r.code));
    expect([...parents].filter((p) => !codes.has(p))).toEqual([]);
  });

  test("every account's type matches its class, and its parent's type", async () => {
    const rows = await rowsOf(w.companyId);
    const byCode = new Map(rows.map((r) => [r.code, r]));
    // 999, the opening-balance interim account, stands outside the classes as an equity account.
    expect(rows.filter((r) => r.type !== (r.code === "999" ? "equity" : CLASS_TYPE[r.code[0]])).map((r) => r.code)).toEqual([]);
    expect(rows.filter((r) => r.parent_code && byCode.get(r.parent_code)!.type !== r.type).map((r) => r.code)).toEqual([]);
  });

  test("an account that exists already is left untouched and counted as existing", async () => {
    const v = await accountsWorld();
    await v.api.ledger.accounts.create({ code: "2410", name: "Mano pirkėjai", type: "asset" });
    expect(await v.api.ledger.accounts.applyTemplate({ template: "lt-standard" })).toEqual({
      template: "lt-standard",
      created: TEMPLATE_SIZE - 1,
      existing: 1,
    });
    expect(await rowOf(v.companyId, "2410")).toMatchObject({ name: "Mano pirkėjai", name_en: null, parent_code: null });
    expect(await rowsOf(v.companyId)).toHaveLength(TEMPLATE_SIZE);
  });

  test.each([
    ["unknown template", { template: "us-gaap" }, "template"],
    ["missing template", {}, "template"],
  ])("%s -> 400, nothing created", async (_name, body, field) => {
    const v = await accountsWorld();
    const error = await expectApiError(v.api.ledger.accounts.applyTemplate(invalid(body)), 400, "validation");
    expect(Object.keys(error.fieldErrors ?? {})).toContain(field);
    expect(await rowsOf(v.companyId)).toHaveLength(0);
  });
});

describe("create and get", () => {
  let w: World;
  beforeAll(async () => {
    w = await accountsWorld();
  });

  test("create returns the account with its defaults and stores it", async () => {
    const res = await w.api.ledger.accounts.create({ code: "A.100", name: "Sąskaita", type: "asset" });
    expect(res).toEqual({
      id: expect.stringMatching(UUID),
      code: "A.100",
      name: "Sąskaita",
      nameEn: null,
      type: "asset",
      parentCode: null,
      isPostable: true,
      isContra: false,
      statementLine: null,
      saft: { accountTableId: null, accountType: "TT", groupingCategory: "D1L", groupingCode: null },
      createdAt: expect.stringMatching(ISO),
      updatedAt: expect.stringMatching(ISO),
    });
    const row = await rowOf(w.companyId, "A.100");
    expect(row).toMatchObject({ id: res.id, name: "Sąskaita", name_en: null, type: "asset", parent_code: null, is_postable: true });
  });

  test("create under a non-postable parent of the same type", async () => {
    await w.api.ledger.accounts.create({ code: "H1", name: "Header", nameEn: "Header EN", type: "liability", isPostable: false });
    const res = await w.api.ledger.accounts.create({ code: "H1.1", name: "Child", nameEn: "Child EN", type: "liability", parentCode: "H1" });
    expect(res).toMatchObject({ code: "H1.1", parentCode: "H1", nameEn: "Child EN", isPostable: true });
    expect(await rowOf(w.companyId, "H1.1")).toMatchObject({ parent_code: "H1", name_en: "Child EN" });
  });

  test("get by id and by code return the same single account", async () => {
    const created = await w.api.ledger.accounts.create({ code: "G1", name: "Get me", type: "income" });
    expect(await w.api.ledger.accounts.get({ id: created.id })).toMatchObject(created);
    expect(await w.api.ledger.accounts.get({ code: "G1" })).toMatchObject(created);
  });

  test.each([
    ["both id and code", (id: string) => ({ id, code: "G2" }), 400, "validation"],
    ["neither id nor code", () => ({}), 400, "validation"],
    ["an unknown code", () => ({ code: "NOPE" }), 404, "not_found"],
    ["an unknown id", () => ({ id: "00000000-0000-4000-8000-000000000000" }), 404, "not_found"],
  ])("get with %s", async (_name, body, status, code) => {
    const created = await w.api.ledger.accounts.create({ code: `G2${status}${code.length}${_name.length}`, name: "X", type: "income" });
    // The 400 cases send what the contract forbids (exactly one of id and code).
    await expectApiError(w.api.ledger.accounts.get(invalid(body(created.id))), status, code);
  });

  test("another company's account is not found by id or code", async () => {
    const other = await accountsWorld();
    const theirs = await other.api.ledger.accounts.create({ code: "THEIRS", name: "Kita", type: "asset" });
    await expectApiError(w.api.ledger.accounts.get({ id: theirs.id }), 404, "not_found");
    await expectApiError(w.api.ledger.accounts.get({ code: "THEIRS" }), 404, "not_found");
  });

  test.each<{ name: string; setup: CreateBody[]; input: CreateBody; status: number; code: string; key: string }>([
    {
      name: "duplicate code",
      setup: [{ code: "D1", name: "First", type: "asset" }],
      input: { code: "D1", name: "Second", type: "asset" },
      status: 409,
      code: "conflict",
      key: "ledger_account.code_taken",
    },
    {
      name: "parent missing",
      setup: [],
      input: { code: "P1.1", name: "Orphan", type: "asset", parentCode: "P1" },
      status: 422,
      code: "unprocessable",
      key: "ledger_account.parent_unknown",
    },
    {
      name: "parent postable",
      setup: [{ code: "P2", name: "Postable parent", type: "asset" }],
      input: { code: "P2.1", name: "Child", type: "asset", parentCode: "P2" },
      status: 409,
      code: "conflict",
      key: "ledger_account.parent_postable",
    },
    {
      name: "child type differs from parent",
      setup: [{ code: "P3", name: "Header", type: "asset", isPostable: false }],
      input: { code: "P3.1", name: "Child", type: "expense", parentCode: "P3" },
      status: 422,
      code: "unprocessable",
      key: "ledger_account.type_differs_from_parent",
    },
  ])("create: $name -> $status $key, nothing stored", async ({ setup, input, status, code, key }) => {
    const v = await accountsWorld();
    for (const s of setup) await v.api.ledger.accounts.create(s);
    const before = await rowsOf(v.companyId);
    await expectApiError(v.api.ledger.accounts.create(input), status, code, key);
    expect(await rowsOf(v.companyId)).toEqual(before);
  });

  test.each([
    { name: "code of 20 characters", input: { code: "A".repeat(20) }, ok: true },
    { name: "code of 21 characters", input: { code: "A".repeat(21) }, field: "code" },
    { name: "code with a dash", input: { code: "24-10" }, field: "code" },
    { name: "code with a space", input: { code: "24 10" }, field: "code" },
    { name: "code with a letter outside ASCII", input: { code: "Ž1" }, field: "code" },
    { name: "empty code", input: { code: "" }, field: "code" },
    { name: "name of 255 characters", input: { name: "ž".repeat(255) }, ok: true },
    { name: "name of 256 characters", input: { name: "n".repeat(256) }, field: "name" },
    { name: "blank name", input: { name: "   " }, field: "name" },
    { name: "nameEn of 256 characters", input: { nameEn: "n".repeat(256) }, field: "nameEn" },
    { name: "unknown type", input: { type: "revenue" }, field: "type" },
    { name: "missing type", input: { type: undefined }, field: "type" },
    { name: "unknown property", input: { currency: "EUR" }, field: "currency" },
    { name: "isPostable not a boolean", input: { isPostable: "yes" }, field: "isPostable" },
  ])("create validation: $name", async ({ input, ok: accepted, field }) => {
    const v = await accountsWorld();
    // Most cases send what the contract forbids.
    const res = await settle(v.api.ledger.accounts.create(invalid({ code: "V1", name: "Valid", type: "asset", ...input })));
    if (accepted) {
      expect(res.status).toBe(200);
      expect(res.data).toMatchObject(Object.fromEntries(Object.entries(input)));
      expect(await rowsOf(v.companyId)).toHaveLength(1);
    } else {
      expect([res.status, res.error?.code]).toEqual([400, "validation"]);
      expect(Object.keys(res.error?.fieldErrors ?? {})).toEqual([field]);
      expect(await rowsOf(v.companyId)).toHaveLength(0);
    }
  });
});

describe("list", () => {
  let w: World;
  beforeAll(async () => {
    w = await accountsWorld();
    for (const a of [
      { code: "1", name: "Turtas", type: "asset", isPostable: false },
      { code: "10", name: "Banko sąskaita", type: "asset", parentCode: "1" },
      { code: "11", name: "Kasa", type: "asset", parentCode: "1" },
      { code: "4", name: "Įsipareigojimai", type: "liability", isPostable: false },
      { code: "40", name: "Tiekėjai", type: "liability", parentCode: "4" },
      { code: "5", name: "Pajamos", type: "income" },
    ] satisfies CreateBody[])
      await w.api.ledger.accounts.create(a);
  });

  const codes = (res: { rows: { code: string }[] }) => res.rows.map((r) => r.code);

  test.each<{ name: string; body: RequestBody<"ledger_accounts_list">; expected: string[] }>([
    { name: "default order is code", body: {}, expected: ["1", "10", "11", "4", "40", "5"] },
    { name: "code eq", body: { filter: [{ field: "code", op: "eq", value: "40" }] }, expected: ["40"] },
    { name: "name contains (case-insensitive)", body: { filter: [{ field: "name", op: "contains", value: "KAS" }] }, expected: ["11"] },
    { name: "type eq", body: { filter: [{ field: "type", op: "eq", value: "liability" }] }, expected: ["4", "40"] },
    { name: "parentCode eq", body: { filter: [{ field: "parentCode", op: "eq", value: "1" }] }, expected: ["10", "11"] },
    { name: "isPostable false", body: { filter: [{ field: "isPostable", op: "eq", value: false }] }, expected: ["1", "4"] },
    {
      name: "isPostable true and type asset",
      body: {
        filter: [
          { field: "isPostable", op: "eq", value: true },
          { field: "type", op: "eq", value: "asset" },
        ],
      },
      expected: ["10", "11"],
    },
    { name: "sort code desc", body: { sort: [{ field: "code", dir: "desc" }] }, expected: ["5", "40", "4", "11", "10", "1"] },
    { name: "sort name asc", body: { sort: [{ field: "name", dir: "asc" }] }, expected: ["10", "11", "5", "40", "1", "4"] },
    {
      name: "sort type then code desc",
      body: {
        sort: [
          { field: "type", dir: "asc" },
          { field: "code", dir: "desc" },
        ],
      },
      expected: ["11", "10", "1", "5", "40", "4"],
    },
  ])("$name", async ({ body, expected }) => {
    const res = await w.api.ledger.accounts.list(body);
    expect({ codes: codes(res), total: res.total }).toEqual({ codes: expected, total: expected.length });
    const db = await rowsOf(w.companyId);
    for (const row of res.rows)
      expect(db.find((r) => r.code === row.code)).toMatchObject({ id: row.id, name: row.name, type: row.type, is_postable: row.isPostable });
  });

  test("another company's accounts are not listed", async () => {
    const other = await accountsWorld();
    await other.api.ledger.accounts.create({ code: "ZZ", name: "Kitos", type: "asset" });
    expect(codes(await w.api.ledger.accounts.list({ filter: [{ field: "code", op: "eq", value: "ZZ" }] }))).toEqual([]);
  });

  test("an unknown filter field -> 400", async () => {
    await expectApiError(w.api.ledger.accounts.list(invalid({ filter: [{ field: "balance", op: "eq", value: "1" }] })), 400, "validation");
  });
});

describe("update", () => {
  test("changes only the fields sent; nameEn null clears it; updatedAt moves", async () => {
    const w = await accountsWorld();
    const created = await w.api.ledger.accounts.create({ code: "U1", name: "Old", nameEn: "Old EN", type: "asset" });
    await sleep(20); // so that a moved updatedAt is strictly later
    const res = await w.api.ledger.accounts.update({ code: "U1", name: "New", nameEn: null });
    expect(res).toEqual({ ...created, name: "New", nameEn: null, updatedAt: expect.stringMatching(ISO) });
    expect(new Date(res.updatedAt).getTime()).toBeGreaterThan(new Date(created.updatedAt).getTime());
    expect(await rowOf(w.companyId, "U1")).toMatchObject({ name: "New", name_en: null, type: "asset", is_postable: true, parent_code: null });
  });

  test("moves an account under a header, changes its type, and back to top level", async () => {
    const w = await accountsWorld();
    await w.api.ledger.accounts.create({ code: "HX", name: "Header", type: "expense", isPostable: false });
    await w.api.ledger.accounts.create({ code: "U2", name: "Account", type: "asset" });
    const moved = await w.api.ledger.accounts.update({ code: "U2", type: "expense", parentCode: "HX" });
    expect(moved).toMatchObject({ code: "U2", type: "expense", parentCode: "HX" });
    expect(await rowOf(w.companyId, "U2")).toMatchObject({ type: "expense", parent_code: "HX" });
    const top = await w.api.ledger.accounts.update({ code: "U2", parentCode: null });
    expect(top).toMatchObject({ parentCode: null, type: "expense" });
    expect(await rowOf(w.companyId, "U2")).toMatchObject({ parent_code: null });
  });

  test("an account without postings may become non-postable and postable again", async () => {
    const w = await accountsWorld();
    await w.api.ledger.accounts.create({ code: "U3", name: "Account", type: "asset" });
    expect((await w.api.ledger.accounts.update({ code: "U3", isPostable: false })).isPostable).toBe(false);
    expect((await rowOf(w.companyId, "U3")).is_postable).toBe(false);
    expect((await w.api.ledger.accounts.update({ code: "U3", isPostable: true })).isPostable).toBe(true);
    expect((await rowOf(w.companyId, "U3")).is_postable).toBe(true);
  });

  // A chart: A (header) > A.1 (header) > A.1.1 (postable); E (header, expense); P (postable, asset, with postings); L (postable, liability).
  async function chart() {
    const w = await accountsWorld();
    for (const a of [
      { code: "A", name: "A", type: "asset", isPostable: false },
      { code: "A.1", name: "A.1", type: "asset", isPostable: false, parentCode: "A" },
      { code: "A.1.1", name: "A.1.1", type: "asset", parentCode: "A.1" },
      { code: "E", name: "E", type: "expense", isPostable: false },
      { code: "P", name: "P", type: "asset" },
      { code: "L", name: "L", type: "liability" },
      { code: "FREE", name: "FREE", type: "asset" },
    ] satisfies CreateBody[])
      await w.api.ledger.accounts.create(a);
    await w.api.ledger.journal.transactions.create({
      date: "2026-02-10",
      entries: [
        { accountCode: "P", debit: "10.00" },
        { accountCode: "L", credit: "10.00" },
      ],
    });
    return w;
  }

  test.each<{ name: string; input: RequestBody<"ledger_accounts_update">; status: number; code: string; key?: string }>([
    { name: "unknown account", input: { code: "NOPE", name: "x" }, status: 404, code: "not_found", key: "ledger_account.not_found" },
    { name: "parent is itself", input: { code: "A", parentCode: "A" }, status: 422, code: "unprocessable", key: "ledger_account.parent_cycle" },
    {
      name: "parent is its own grandchild (cycle)",
      input: { code: "A", parentCode: "A.1" },
      status: 422,
      code: "unprocessable",
      key: "ledger_account.parent_cycle",
    },
    { name: "parent missing", input: { code: "FREE", parentCode: "MISSING" }, status: 422, code: "unprocessable", key: "ledger_account.parent_unknown" },
    { name: "parent postable", input: { code: "FREE", parentCode: "P" }, status: 409, code: "conflict", key: "ledger_account.parent_postable" },
    {
      name: "parent of another type",
      input: { code: "FREE", parentCode: "E" },
      status: 422,
      code: "unprocessable",
      key: "ledger_account.type_differs_from_parent",
    },
    {
      name: "type differing from its sub-accounts",
      input: { code: "A.1", type: "expense" },
      status: 422,
      code: "unprocessable",
      key: "ledger_account.type_differs_from_children",
    },
    { name: "account with postings changes type", input: { code: "P", type: "expense" }, status: 409, code: "conflict", key: "ledger_account.has_postings" },
    {
      name: "account with postings becomes non-postable",
      input: { code: "P", isPostable: false },
      status: 409,
      code: "conflict",
      key: "ledger_account.has_postings",
    },
    { name: "account with sub-accounts becomes postable", input: { code: "A.1", isPostable: true }, status: 409, code: "conflict" },
  ])("$name -> $status, nothing changes", async ({ input, status, code, key }) => {
    const w = await chart();
    const before = await rowsOf(w.companyId);
    await expectApiError(w.api.ledger.accounts.update(input), status, code, key);
    expect(await rowsOf(w.companyId)).toEqual(before);
  });

  test("an account with postings may still be renamed", async () => {
    const w = await chart();
    const res = await w.api.ledger.accounts.update({ code: "P", name: "Renamed", type: "asset", isPostable: true });
    expect(res).toMatchObject({ code: "P", name: "Renamed", type: "asset", isPostable: true });
    expect(await rowOf(w.companyId, "P")).toMatchObject({ name: "Renamed" });
  });

  test.each([
    { name: "unknown property", input: { code: "FREE", id: "00000000-0000-4000-8000-000000000000" }, field: "id" },
    { name: "name of 256 characters", input: { code: "FREE", name: "x".repeat(256) }, field: "name" },
    { name: "unknown type", input: { code: "FREE", type: "cost" }, field: "type" },
    { name: "code of 21 characters", input: { code: "F".repeat(21), name: "x" }, field: "code" },
    { name: "missing code", input: { name: "x" }, field: "code" },
  ])("update validation: $name -> 400", async ({ input, field }) => {
    const w = await chart();
    const before = await rowsOf(w.companyId);
    const error = await expectApiError(w.api.ledger.accounts.update(invalid(input)), 400, "validation");
    expect(Object.keys(error.fieldErrors ?? {})).toEqual([field]);
    expect(await rowsOf(w.companyId)).toEqual(before);
  });
});
