// Number series (import rule 8): reference/series/create creates or raises a series and never lowers it; the
// database refuses to lower one; the allocator hands out consecutive numbers under concurrency, gives a rolled-back
// number back, and picks the series by type, year and prefix; reference/series/list orders and filters. Every call
// goes through the SDK and the shared world; a body the contract forbids only through invalid().
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { withTransaction } from "../../src/db/transaction.js";
import { allocateNumber } from "../../src/reference/number-series.js";
import { expectApiError, invalid as forbidden } from "../support/expect.js";
import { startHarness, type Harness } from "../support/harness.js";
import { UUID, ISO_INSTANT as ISO } from "../support/patterns.js";
import { sleep } from "../support/timing.js";
import { world, type World } from "../support/world.js";
import type { AccountingApi, RequestBody, ResponseData } from "../../sdk/typescript/src/index.js";

type Series = ResponseData<"reference_series_create">;
type CreateBody = RequestBody<"reference_series_create">;
type ListBody = RequestBody<"reference_series_list">;

let h: Harness;
let t: World;

beforeAll(async () => {
  h = await startHarness();
  t = await world(h, { chart: false, company: { name: "Numeruotojas UAB" } });
});
afterAll(() => h.close());

const create = (body: CreateBody, client: AccountingApi = t.api): Promise<Series> => client.reference.series.create(body);
const row = (id: string) => h.db("number_series").where({ id }).first();

let seq = 0;
/** A prefix no other test uses. */
const prefix = (base = "P") => `${base}${++seq}`;

describe("reference/series/create", () => {
  test("returns {id, documentType, prefix, year, nextNumber, nextFormatted, createdAt, updatedAt}; startAt defaults to 1", async () => {
    const made = await create({ documentType: "sale_invoice", prefix: "SF", year: 2026 });
    expect(made).toEqual({
      id: expect.stringMatching(UUID),
      documentType: "sale_invoice",
      prefix: "SF",
      year: 2026,
      nextNumber: 1,
      nextFormatted: "SF-1",
      createdAt: expect.stringMatching(ISO),
      updatedAt: expect.stringMatching(ISO),
    });
    expect(await row(made.id)).toMatchObject({ company_id: t.companyId, document_type: "sale_invoice", prefix: "SF", year: 2026, next_number: "1" });
  });

  test("startAt sets the next number; prefixes of letters, digits, _ and / up to 20 characters", async () => {
    const p = "A_b/9".padEnd(20, "x");
    const s = await create({ documentType: "purchase_invoice", prefix: p, year: 2100, startAt: 999999999 });
    expect(s).toMatchObject({ prefix: p, year: 2100, nextNumber: 999999999, nextFormatted: `${p}-999999999` });
    const low = await create({ documentType: "journal", prefix: prefix("J"), year: 2000, startAt: 1 });
    expect(low.nextNumber).toBe(1);
    expect((await row(s.id)).next_number).toBe("999999999");
  });

  describe("an existing series", () => {
    let existing: Series;
    const identity = { documentType: "sale_invoice", prefix: "EX", year: 2027 } as const;

    beforeAll(async () => {
      existing = await create({ ...identity, startAt: 10 });
    });

    test.each<[string, Partial<CreateBody>]>([
      ["startAt below", { startAt: 3 }],
      ["startAt equal", { startAt: 10 }],
      ["startAt left out (1)", {}],
    ])("%s its next number: 409 conflict series.exists, and the series is unchanged", async (_label, extra) => {
      const before = await row(existing.id);
      await expectApiError(create({ ...identity, ...extra }), 409, "conflict", "series.exists");
      expect(await row(existing.id)).toEqual(before);
      expect(await h.db("number_series").where({ company_id: t.companyId, prefix: "EX" }).count<{ count: string }[]>("* as count")).toEqual([{ count: "1" }]);
    });

    test("a higher startAt raises it: 200, same id, nextNumber = startAt; then a lower one is 409 again", async () => {
      await sleep(20); // so that the raise's timestamp can only be later
      const raised = await create({ ...identity, startAt: 25 });
      expect(raised).toMatchObject({ id: existing.id, nextNumber: 25, nextFormatted: "EX-25", createdAt: existing.createdAt });
      expect(Date.parse(raised.updatedAt)).toBeGreaterThan(Date.parse(existing.updatedAt));
      expect((await row(existing.id)).next_number).toBe("25");
      await expectApiError(create({ ...identity, startAt: 24 }), 409, "conflict", "series.exists");
      expect((await row(existing.id)).next_number).toBe("25");
    });

    test.each<[string, Partial<CreateBody>]>([
      ["another year", { year: 2028 }],
      ["another document type", { documentType: "sale_credit_note" }],
    ])("the same prefix with %s is a separate series", async (_label, change) => {
      const other = await create({ ...identity, ...change, startAt: 2 });
      expect(other.id).not.toBe(existing.id);
      expect(other).toMatchObject({ prefix: "EX", nextNumber: 2, ...change });
      expect((await row(existing.id)).next_number).toBe("25");
      expect((await row(other.id)).next_number).toBe("2");
    });

    test("another company's series of the same identity is a separate series", async () => {
      const other = await world(h, { chart: false, company: { name: "Kitas UAB" } });
      const s = await create({ ...identity }, other.api);
      expect((await row(s.id)).company_id).toBe(other.companyId);
      expect(s.id).not.toBe(existing.id);
      expect(s.nextNumber).toBe(1);
      expect((await row(existing.id)).next_number).toBe("25");
    });
  });

  // [label, body, the fieldErrors key]
  const invalid: [string, Record<string, unknown>, string][] = [
    ["prefix with -", { prefix: "SF-A" }, "prefix"],
    ["prefix of 21 characters", { prefix: "A".repeat(21) }, "prefix"],
    ["empty prefix", { prefix: "" }, "prefix"],
    ["prefix with a space", { prefix: "S F" }, "prefix"],
    ["year 1999", { year: 1999 }, "year"],
    ["year 2101", { year: 2101 }, "year"],
    ["year as a string", { year: "2026" }, "year"],
    ["startAt 0", { startAt: 0 }, "startAt"],
    ["startAt 1000000000", { startAt: 1000000000 }, "startAt"],
    ["startAt 1.5", { startAt: 1.5 }, "startAt"],
    ["unknown documentType", { documentType: "invoice" }, "documentType"],
    ["missing documentType", { documentType: undefined }, "documentType"],
    ["an unknown member", { nextNumber: 5 }, "nextNumber"],
  ];

  test.each(invalid)("%s: 400 naming the field, nothing written", async (_label, change, field) => {
    const body = { documentType: "sale_invoice", prefix: "VAL", year: 2030, ...change };
    const error = await expectApiError(create(forbidden(body)), 400, "validation");
    expect(Object.keys(error.fieldErrors ?? {})).toEqual([field]);
    expect(await h.db("number_series").where({ company_id: t.companyId, year: 2030 }).count<{ count: string }[]>("* as count")).toEqual([{ count: "0" }]);
  });
});

describe("the database refuses to lower a series", () => {
  test("update next_number = next_number - 1 fails on the trigger, and the row is unchanged", async () => {
    const s = await create({ documentType: "journal", prefix: prefix("LOW"), year: 2026, startAt: 50 });
    const before = await row(s.id);
    await expect(h.db.raw("update number_series set next_number = next_number - 1 where id = ?", [s.id])).rejects.toMatchObject({
      code: "23514",
      constraint: "number_series_never_lowered",
    });
    await expect(h.db("number_series").where({ id: s.id }).update({ next_number: 1 })).rejects.toThrow(/cannot be lowered/);
    expect(await row(s.id)).toEqual(before);
    // Raising is allowed.
    await h.db("number_series").where({ id: s.id }).update({ next_number: 51 });
    expect((await row(s.id)).next_number).toBe("51");
  });
});

describe("allocateNumber", () => {
  const allocate = (target: Parameters<typeof allocateNumber>[1]) => withTransaction(h.db, (trx) => allocateNumber(trx, target));

  test("50 concurrent allocations, each in its own transaction, take 50 consecutive numbers", async () => {
    const p = prefix("C");
    const s = await create({ documentType: "sale_invoice", prefix: p, year: 2031, startAt: 100 });
    const target = { companyId: t.companyId, documentType: "sale_invoice" as const, year: 2031, prefix: p };
    const results = await Promise.all(Array.from({ length: 50 }, () => allocate(target)));
    const numbers = results.map((r) => r!.number);
    expect(new Set(numbers).size).toBe(50);
    expect(results.map((r) => r!.sequence).sort((x, y) => x - y)).toEqual(Array.from({ length: 50 }, (_, i) => 100 + i));
    expect([...numbers].sort()).toEqual(Array.from({ length: 50 }, (_, i) => `${p}-${100 + i}`).sort());
    expect(results.every((r) => r!.seriesId === s.id)).toBe(true);
    const listed = await t.api.reference.series.list({ filter: [{ field: "id", op: "eq", value: s.id }] });
    expect(listed.rows[0]).toMatchObject({ nextNumber: 150, nextFormatted: `${p}-150` });
  });

  test("a rolled-back transaction gives its number back", async () => {
    const p = prefix("R");
    const s = await create({ documentType: "sale_credit_note", prefix: p, year: 2031, startAt: 7 });
    const target = { companyId: t.companyId, documentType: "sale_credit_note" as const, year: 2031, prefix: p };
    let taken: Awaited<ReturnType<typeof allocateNumber>> = null;
    await expect(
      withTransaction(h.db, async (trx) => {
        taken = await allocateNumber(trx, target);
        throw new Error("document failed");
      }),
    ).rejects.toThrow("document failed");
    expect(taken).toMatchObject({ number: `${p}-7`, sequence: 7, seriesId: s.id });
    expect((await row(s.id)).next_number).toBe("7");
    expect(await allocate(target)).toEqual({ seriesId: s.id, number: `${p}-7`, sequence: 7 });
    expect(await allocate(target)).toMatchObject({ number: `${p}-8` });
    expect((await row(s.id)).next_number).toBe("9");
  });

  test("without a series it returns null and writes nothing", async () => {
    const before = await h.db("number_series").orderBy("id").select();
    expect(await allocate({ companyId: t.companyId, documentType: "purchase_invoice", year: 2099 })).toBeNull();
    expect(await allocate({ companyId: t.companyId, documentType: "sale_invoice", year: 2026, prefix: "NOSUCH" })).toBeNull();
    expect(await allocate({ companyId: randomUUID(), documentType: "sale_invoice", year: 2026 })).toBeNull();
    expect(await h.db("number_series").orderBy("id").select()).toEqual(before);
  });

  test("another company's series is never used", async () => {
    const other = await world(h, { chart: false, company: { name: "Svetimas UAB" } });
    const theirs = await create({ documentType: "journal", prefix: "THEIRS", year: 2040 }, other.api);
    expect(await allocate({ companyId: t.companyId, documentType: "journal", year: 2040 })).toBeNull();
    expect(await allocate({ companyId: t.companyId, documentType: "journal", year: 2040, prefix: "THEIRS" })).toBeNull();
    expect((await row(theirs.id)).next_number).toBe("1");
  });

  test("two series of the type and year: no prefix takes the earliest-created, a prefix takes that one", async () => {
    // ZZ is created first, AA later, and their ids are ordered the other way, so neither prefix nor id order
    // would pick ZZ.
    const [older, newer] = [randomUUID(), randomUUID()].sort().reverse();
    await h.db("number_series").insert([
      { company_id: t.companyId, id: older, document_type: "journal", prefix: "ZZ", year: 2045, next_number: 5, created_at: "2020-01-01T00:00:00Z" },
      { company_id: t.companyId, id: newer, document_type: "journal", prefix: "AA", year: 2045, next_number: 70, created_at: "2021-01-01T00:00:00Z" },
    ]);
    expect(await allocate({ companyId: t.companyId, documentType: "journal", year: 2045 })).toEqual({ seriesId: older, number: "ZZ-5", sequence: 5 });
    expect(await allocate({ companyId: t.companyId, documentType: "journal", year: 2045 })).toMatchObject({ number: "ZZ-6" });
    expect(await allocate({ companyId: t.companyId, documentType: "journal", year: 2045, prefix: "AA" })).toEqual({
      seriesId: newer,
      number: "AA-70",
      sequence: 70,
    });
    expect((await row(older)).next_number).toBe("7");
    expect((await row(newer)).next_number).toBe("71");
    // Another document type or year is not taken from.
    expect(await allocate({ companyId: t.companyId, documentType: "sale_credit_note", year: 2045 })).toBeNull();
    expect(await allocate({ companyId: t.companyId, documentType: "journal", year: 2046 })).toBeNull();
  });
});

describe("reference/series/list", () => {
  let l: World;
  const list = (body: ListBody) => l.api.reference.series.list(body);
  const inputs: CreateBody[] = [
    { documentType: "sale_invoice", prefix: "B", year: 2025 },
    { documentType: "journal", prefix: "MEM", year: 2026 },
    { documentType: "sale_invoice", prefix: "A", year: 2025 },
    { documentType: "sale_credit_note", prefix: "KR", year: 2025 },
    { documentType: "sale_invoice", prefix: "A", year: 2026, startAt: 40 },
    { documentType: "purchase_invoice", prefix: "A", year: 2024 },
    { documentType: "sale_invoice", prefix: "AB", year: 2024 },
  ];
  const label = (s: { documentType: string; prefix: string; year: number }) => `${s.year} ${s.documentType} ${s.prefix}`;

  beforeAll(async () => {
    l = await world(h, { chart: false, company: { name: "Sąrašas UAB" }, series: inputs });
  });

  test("default order: year desc, documentType, prefix; rows as create returned them", async () => {
    const res = await list({});
    expect(res.rows.map(label)).toEqual([
      "2026 journal MEM",
      "2026 sale_invoice A",
      "2025 sale_credit_note KR",
      "2025 sale_invoice A",
      "2025 sale_invoice B",
      "2024 purchase_invoice A",
      "2024 sale_invoice AB",
    ]);
    expect(res.total).toBe(7);
    expect(res.rows.find((r) => r.year === 2026 && r.prefix === "A")).toMatchObject({ nextNumber: 40, nextFormatted: "A-40" });
  });

  test.each<[string, ListBody["filter"], string[]]>([
    ["year eq", [{ field: "year", op: "eq", value: 2025 }], ["2025 sale_credit_note KR", "2025 sale_invoice A", "2025 sale_invoice B"]],
    [
      "year in",
      [{ field: "year", op: "in", value: [2024, 2026] }],
      ["2026 journal MEM", "2026 sale_invoice A", "2024 purchase_invoice A", "2024 sale_invoice AB"],
    ],
    ["year gte", [{ field: "year", op: "gte", value: 2026 }], ["2026 journal MEM", "2026 sale_invoice A"]],
    ["year lte as text", [{ field: "year", op: "lte", value: "2024" }], ["2024 purchase_invoice A", "2024 sale_invoice AB"]],
    ["prefix eq", [{ field: "prefix", op: "eq", value: "A" }], ["2026 sale_invoice A", "2025 sale_invoice A", "2024 purchase_invoice A"]],
    [
      "prefix contains",
      [{ field: "prefix", op: "contains", value: "a" }],
      ["2026 sale_invoice A", "2025 sale_invoice A", "2024 purchase_invoice A", "2024 sale_invoice AB"],
    ],
    [
      "prefix and year",
      [
        { field: "prefix", op: "eq", value: "A" },
        { field: "year", op: "ne", value: 2026 },
      ],
      ["2025 sale_invoice A", "2024 purchase_invoice A"],
    ],
    ["nextNumber gte", [{ field: "nextNumber", op: "gte", value: 2 }], ["2026 sale_invoice A"]],
  ])("filter: %s (in the default order)", async (_label, filter, expected) => {
    const res = await list({ filter });
    expect(res.rows.map(label)).toEqual(expected);
    expect(res.total).toBe(expected.length);
  });

  test("sort by nextNumber desc, then prefix; and the company's series only", async () => {
    const res = await list({ sort: [{ field: "nextNumber", dir: "desc" }, { field: "prefix" }, { field: "year", dir: "desc" }], pageSize: 3 });
    expect(res.rows.map(label)).toEqual(["2026 sale_invoice A", "2025 sale_invoice A", "2024 purchase_invoice A"]);
    expect(res.total).toBe(7);
    const ids = (await list({ pageSize: 500 })).rows.map((r) => r.id).sort();
    expect(ids).toEqual((await h.db("number_series").where({ company_id: l.companyId }).pluck("id")).sort());
  });
});
