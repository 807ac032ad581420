// Billing (spec: "Authentication", rule 5; "Errors": payment_required): once an account's trial has ended and
// its prepaid credit is used up, every operation of that account answers 402 and changes nothing.
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { setBilling } from "../../src/account/accounts.js";
import { startHarness, type Harness } from "../support/harness.js";
import { ltCompanyCode } from "../support/codes.js";

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

type Tenant = Awaited<ReturnType<Harness["tenant"]>>;

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
const operations = (t: Tenant) => [
  { name: "account/companies/list (read)", path: "/v1/account/companies/list", body: {}, opts: { key: t.apiKey } },
  { name: "partners/get (read)", path: "/v1/partners/get", body: { code: "P-ANY" }, opts: { key: t.apiKey, companyId: t.companyId } },
  {
    name: "partners/create (write)",
    path: "/v1/partners/create",
    body: { code: uniq("P"), name: "Partneris" },
    opts: { key: t.apiKey, companyId: t.companyId, idempotencyKey: uniq("billing") },
  },
  {
    name: "account/companies/create (write)",
    path: "/v1/account/companies/create",
    body: { name: "Nauja UAB", code: ltCompanyCode(), countryCode: "LT" },
    opts: { key: t.apiKey },
  },
];

async function expectAllowed(t: Tenant) {
  const before = await counts(t);
  const created = await h.post("/v1/partners/create", { code: uniq("P"), name: "Leidžiama" }, { key: t.apiKey, companyId: t.companyId });
  expect(created.status).toBe(200);
  const listed = await h.post("/v1/account/companies/list", {}, { key: t.apiKey });
  expect(listed.status).toBe(200);
  expect(listed.body.rows.map((c: { id: string }) => c.id)).toContain(t.companyId);
  expect(await counts(t)).toEqual({ ...before, partners: before.partners + 1 });
}

describe("402 payment_required", () => {
  test("trial ended yesterday and no credit: every operation is 402 in the envelope, and nothing is written", async () => {
    const t = await h.tenant();
    await setBilling(h.db, t.accountId, { trialEndsAt: dates.yesterday, credit: "0" });
    const before = await counts(t);

    for (const op of operations(t)) {
      const res = await h.post(op.path, op.body, op.opts);
      expect(`${op.name} ${res.status}`).toBe(`${op.name} 402`);
      expect(res.body.error).toMatchObject({ code: "payment_required", key: "billing.payment_required" });
      expect(res.body.error.message).toMatch(/\S/);
      expect(res.body.error.requestId).toBe(res.headers.get("x-request-id"));
      expect(res.headers.get("x-idempotent-replay")).toBeNull();
    }
    expect(await counts(t)).toEqual(before);
  });

  test("a blocked account recovers as soon as credit is added; with credit 10.00 the ended trial does not matter", async () => {
    const t = await h.tenant();
    await setBilling(h.db, t.accountId, { trialEndsAt: dates.yesterday, credit: "0" });
    expect((await h.post("/v1/account/companies/list", {}, { key: t.apiKey })).status).toBe(402);

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
    const t = await h.tenant();
    await setBilling(h.db, t.accountId, { trialEndsAt: trialEndsAt(), credit: "0" });
    await expectAllowed(t);
  });

  test("another account is unaffected by a blocked one", async () => {
    const blocked = await h.tenant();
    const other = await h.tenant();
    await setBilling(h.db, blocked.accountId, { trialEndsAt: dates.yesterday, credit: "0" });
    expect((await h.post("/v1/account/companies/list", {}, { key: blocked.apiKey })).status).toBe(402);
    await expectAllowed(other);
  });

  test("authentication comes first: a bad, missing or revoked key of a blocked account is 401, not 402", async () => {
    const t = await h.tenant();
    await setBilling(h.db, t.accountId, { trialEndsAt: dates.yesterday, credit: "0" });
    const before = await counts(t);

    // The key's own id with a wrong secret: the gate finds the account, but the key is not valid.
    const wrongSecret = t.apiKey.slice(0, -43) + "A".repeat(43);
    expect(wrongSecret).not.toBe(t.apiKey);
    const bad = await h.post("/v1/partners/create", { code: uniq("P"), name: "X" }, { key: wrongSecret, companyId: t.companyId });
    expect(bad.status).toBe(401);
    expect(bad.body.error).toMatchObject({ code: "unauthorized", key: "auth.key_invalid" });

    const missing = await h.post("/v1/account/companies/list", {});
    expect(missing.status).toBe(401);
    expect(missing.body.error).toMatchObject({ code: "unauthorized", key: "auth.key_missing" });

    await h.db("api_keys").where({ id: t.keyId }).update({ revoked_at: h.db.fn.now() });
    const revoked = await h.post("/v1/account/companies/list", {}, { key: t.apiKey });
    expect(revoked.status).toBe(401);
    expect(revoked.body.error.code).toBe("unauthorized");
    expect(await counts(t)).toEqual(before);
  });
});
