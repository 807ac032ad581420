// Billing (spec: "Authentication", rule 5; "Errors": payment_required): once an account's trial has ended and
// its prepaid credit is used up, every operation of that account answers 402 and changes nothing. Calls go through
// the SDK; only the request without an Authorization header is sent raw (no SDK client sends one without a key).
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { setBilling } from "../../src/account/accounts.js";
import { startHarness, type Harness } from "../support/harness.js";
import { ltCompanyCode } from "../support/codes.js";
import { expectApiError } from "../support/expect.js";
import { world, type World } from "../support/world.js";
import { AccountingApiError } from "../../sdk/typescript/src/index.js";

let h: Harness;
let dates: { yesterday: string; today: string; tomorrow: string };
beforeAll(async () => {
  h = await startHarness();
  // The database's calendar decides whether a trial has ended, so the dates come from it.
  const { rows } = await h.db.raw<{ rows: (typeof dates)[] }>(
    "select (current_date - 1)::text as yesterday, current_date::text as today, (current_date + 1)::text as tomorrow",
  );
  dates = rows[0];
});
afterAll(() => h.close());

type Tenant = World;
/** A new account with one company and no chart (billing is about the account, not its books). */
const tenant = () => world(h, { chart: false });

let seq = 0;
const uniq = (prefix: string) => `${prefix}-${++seq}-${Date.now().toString(36)}`;

const counts = async (t: Tenant) => {
  const [partners, companies, keys] = await Promise.all([
    h.db("partners").where({ company_id: t.companyId }).count({ n: "*" }),
    h.db("companies").where({ account_id: t.accountId }).count({ n: "*" }),
    h.db("idempotency_keys").where({ account_id: t.accountId }).count({ n: "*" }),
  ]);
  return { partners: Number(partners[0].n), companies: Number(companies[0].n), idempotencyKeys: Number(keys[0].n) };
};

/** One read and writes of both kinds (company-scoped and account-level), as the blocked account would send them. */
const operations = (t: Tenant): { name: string; call: () => Promise<unknown> }[] => [
  { name: "account/companies/list (read)", call: () => t.api.account.companies.list() },
  { name: "partners/get (read)", call: () => t.api.partners.get({ code: "P-ANY" }) },
  {
    name: "partners/create (write)",
    call: () => t.api.partners.create({ code: uniq("P"), name: "Partneris" }, { idempotencyKey: uniq("billing") }),
  },
  {
    name: "account/companies/create (write)",
    call: () => t.api.account.companies.create({ name: "Nauja UAB", code: ltCompanyCode(), countryCode: "LT" }),
  },
];

async function expectAllowed(t: Tenant) {
  const before = await counts(t);
  const created = await t.api.partners.create({ code: uniq("P"), name: "Leidžiama" });
  expect(await h.db("partners").where({ id: created.id }).first()).toMatchObject({ company_id: t.companyId, name: "Leidžiama" });
  const listed = await t.api.account.companies.list();
  expect(listed.rows.map((c) => c.id)).toContain(t.companyId);
  expect(await counts(t)).toEqual({ ...before, partners: before.partners + 1 });
}

const blocked = (t: Tenant) => expectApiError(t.api.account.companies.list(), 402, "payment_required", "billing.payment_required");

describe("402 payment_required", () => {
  test("trial ended yesterday and no credit: every operation is 402 in the envelope, and nothing is written", async () => {
    const t = await tenant();
    await setBilling(h.db, t.accountId, { trialEndsAt: dates.yesterday, credit: "0" });
    const before = await counts(t);

    for (const op of operations(t)) {
      const error = await op.call().then(
        () => new Error(`${op.name} succeeded`),
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(AccountingApiError);
      const e = error as AccountingApiError;
      expect(`${op.name} ${e.status} ${e.code} ${e.key}`).toBe(`${op.name} 402 payment_required billing.payment_required`);
      expect(e.message).toMatch(/\S/);
      expect(e.requestId).toBe(e.headers.get("x-request-id"));
      expect(e.headers.get("x-idempotent-replay")).toBeNull();
    }
    expect(await counts(t)).toEqual(before);
  });

  test("a blocked account recovers as soon as credit is added; with credit 10.00 the ended trial does not matter", async () => {
    const t = await tenant();
    await setBilling(h.db, t.accountId, { trialEndsAt: dates.yesterday, credit: "0" });
    await blocked(t);

    await setBilling(h.db, t.accountId, { credit: "10.00" });
    expect(await h.db("accounts").where({ id: t.accountId }).first("trial_ends_at", "prepaid_credit")).toEqual({
      trial_ends_at: dates.yesterday,
      prepaid_credit: "10.00",
    });
    await expectAllowed(t);
  });

  test.each([
    ["the trial ends today", () => dates.today],
    ["the trial ends tomorrow", () => dates.tomorrow],
    ["there is no trial end", () => null],
  ])("allowed with no credit when %s", async (_name, trialEndsAt) => {
    const t = await tenant();
    await setBilling(h.db, t.accountId, { trialEndsAt: trialEndsAt(), credit: "0" });
    await expectAllowed(t);
  });

  test("another account is unaffected by a blocked one", async () => {
    const stopped = await tenant();
    const other = await tenant();
    await setBilling(h.db, stopped.accountId, { trialEndsAt: dates.yesterday, credit: "0" });
    await blocked(stopped);
    await expectAllowed(other);
  });

  test("authentication comes first: a bad, missing or revoked key of a blocked account is 401, not 402", async () => {
    const t = await tenant();
    await setBilling(h.db, t.accountId, { trialEndsAt: dates.yesterday, credit: "0" });
    const before = await counts(t);

    // The key's own id with a wrong secret: the gate finds the account, but the key is not valid.
    const wrongSecret = t.apiKey.slice(0, -43) + "A".repeat(43);
    expect(wrongSecret).not.toBe(t.apiKey);
    await expectApiError(h.sdk(wrongSecret, t.companyId).partners.create({ code: uniq("P"), name: "X" }), 401, "unauthorized", "auth.key_invalid");

    // Raw: a request with no Authorization header at all.
    const missing = await h.post("/v1/account/companies/list", {});
    expect(missing.status).toBe(401);
    expect(missing.body.error).toMatchObject({ code: "unauthorized", key: "auth.key_missing" });

    await h.db("api_keys").where({ id: t.keyId }).update({ revoked_at: h.db.fn.now() });
    await expectApiError(t.api.account.companies.list(), 401, "unauthorized");
    expect(await counts(t)).toEqual(before);
  });
});
