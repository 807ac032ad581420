// ledger/owners (issue 27): the company's owners or shareholders — create, list, update, delete — with the rules the
// database and the code enforce (a unique code, an equity capital account, shares above 0, dates in order) and what
// was stored. SAF-T files name them in their master files (test/contract/saft.test.ts).
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { expectApiError, invalid } from "../support/expect.js";
import { startHarness, type Harness } from "../support/harness.js";
import { ISO_INSTANT as ISO, UUID } from "../support/patterns.js";
import { world, type World } from "../support/world.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const rows = (w: World) => h.db("owners").where({ company_id: w.companyId }).orderBy("code");
const jonas = {
  code: "38001010000",
  name: "Jonas Jonaitis",
  countryCode: "LT",
  capitalAccountCode: "3010",
  sharePercent: "60",
  sharesQuantity: "600",
  sharesAmount: "1800.00",
  sharesType: "ordinary" as const,
  acquiredOn: "2020-05-04",
};

describe("create, list, update, delete", () => {
  test("create echoes the owner and stores it; list shows it; update changes only what is sent; delete removes it", async () => {
    const w = await world(h);
    const made = await w.api.ledger.owners.create(jonas);
    expect(made).toEqual({
      ...jonas,
      sharePercent: "60.00",
      transferredOn: null,
      id: expect.stringMatching(UUID),
      createdAt: expect.stringMatching(ISO),
      updatedAt: expect.stringMatching(ISO),
    });
    expect(await rows(w)).toMatchObject([
      {
        code: jonas.code,
        name: "Jonas Jonaitis",
        capital_account_code: "3010",
        share_percent: "60.00",
        shares_quantity: "600.000000",
        shares_type: "ordinary",
        acquired_on: "2020-05-04",
        transferred_on: null,
      },
    ]);
    const other = await w.api.ledger.owners.create({ code: "111111111", name: "Investicijos UAB", countryCode: "EE", capitalAccountCode: "3010" });
    expect(other).toMatchObject({ sharePercent: null, sharesQuantity: null, sharesAmount: null, sharesType: null, acquiredOn: null, transferredOn: null });
    expect((await w.api.ledger.owners.list({})).rows.map((o) => o.code)).toEqual(["111111111", jonas.code]);
    expect((await w.api.ledger.owners.list({ filter: [{ field: "countryCode", op: "eq", value: "EE" }] })).rows).toEqual([other]);

    const sold = await w.api.ledger.owners.update({ id: made.id, transferredOn: "2026-03-01", sharePercent: null });
    expect(sold).toEqual({ ...made, transferredOn: "2026-03-01", sharePercent: null, updatedAt: expect.stringMatching(ISO) });
    expect(await rows(w)).toMatchObject([
      { code: "111111111" },
      { code: jonas.code, transferred_on: "2026-03-01", share_percent: null, name: "Jonas Jonaitis" },
    ]);

    expect(await w.api.ledger.owners.delete({ id: other.id })).toEqual(other);
    expect((await rows(w)).map((r) => r.code)).toEqual([jonas.code]);
    await expectApiError(w.api.ledger.owners.delete({ id: other.id }), 404, "not_found", "owner.not_found");
  });

  test("another company's owner is neither listed nor changed nor deleted (404)", async () => {
    const w = await world(h);
    const stranger = await world(h);
    const made = await w.api.ledger.owners.create(jonas);
    expect((await stranger.api.ledger.owners.list({})).rows).toEqual([]);
    await expectApiError(stranger.api.ledger.owners.update({ id: made.id, name: "Perimta" }), 404, "not_found", "owner.not_found");
    await expectApiError(stranger.api.ledger.owners.delete({ id: made.id }), 404, "not_found", "owner.not_found");
    expect(await rows(w)).toMatchObject([{ name: "Jonas Jonaitis" }]);
  });
});

describe("refusals, nothing stored", () => {
  test("a code taken -> 409 owner.code_taken, on create and on update", async () => {
    const w = await world(h);
    const first = await w.api.ledger.owners.create(jonas);
    const second = await w.api.ledger.owners.create({ ...jonas, code: "222222222" });
    await expectApiError(w.api.ledger.owners.create({ ...jonas, name: "Kitas" }), 409, "conflict", "owner.code_taken");
    await expectApiError(w.api.ledger.owners.update({ id: second.id, code: first.code }), 409, "conflict", "owner.code_taken");
    expect((await rows(w)).map((r) => [r.code, r.name])).toEqual([
      ["222222222", "Jonas Jonaitis"],
      [jonas.code, "Jonas Jonaitis"],
    ]);
  });

  test.each([
    { name: "an asset account", account: "2710" },
    { name: "an account not in the chart", account: "3999" },
  ])("a capital account that is $name -> 422 owner.account_invalid", async ({ account }) => {
    const w = await world(h);
    const error = await expectApiError(w.api.ledger.owners.create({ ...jonas, capitalAccountCode: account }), 422, "unprocessable", "owner.account_invalid");
    expect(error.params).toEqual({ accountCode: account });
    expect(await rows(w)).toEqual([]);
    const made = await w.api.ledger.owners.create(jonas);
    await expectApiError(w.api.ledger.owners.update({ id: made.id, capitalAccountCode: account }), 422, "unprocessable", "owner.account_invalid");
    expect(await rows(w)).toMatchObject([{ capital_account_code: "3010" }]);
  });

  test.each([
    { name: "no shares", body: { sharesQuantity: "0" }, field: "sharesQuantity" },
    { name: "a negative amount", body: { sharesAmount: "-1.00" }, field: "sharesAmount" },
    { name: "a transfer before the acquisition", body: { transferredOn: "2019-01-01" }, field: "transferredOn" },
  ])("$name -> 422 owner.invalid_fields naming $field", async ({ body, field }) => {
    const w = await world(h);
    const error = await expectApiError(w.api.ledger.owners.create({ ...jonas, ...body }), 422, "unprocessable", "owner.invalid_fields");
    expect(Object.keys(error.fieldErrors ?? {})).toEqual([field]);
    expect(await rows(w)).toEqual([]);
  });

  test.each([
    { name: "a code over 35 characters", body: { code: "X".repeat(36) }, field: "code" },
    { name: "a lowercase country", body: { countryCode: "lt" }, field: "countryCode" },
    { name: "a share over 100%", body: { sharePercent: "100.01" }, field: "sharePercent" },
    { name: "an unknown shares type", body: { sharesType: "golden" }, field: "sharesType" },
  ])("$name -> 400 naming $field", async ({ body, field }) => {
    const w = await world(h);
    const error = await expectApiError(w.api.ledger.owners.create(invalid({ ...jonas, ...body })), 400, "validation");
    expect(Object.keys(error.fieldErrors ?? {})).toEqual([field]);
    expect(await rows(w)).toEqual([]);
  });
});
