// account/audit-log: every successful mutation writes exactly one record, in its own database transaction (a
// failure or an idempotent replay writes none, a read writes none); the list's filters and order; what a
// company-restricted key and another account see; and records that cannot be changed. Every call goes through the
// SDK (`withResponse`, for the request id an audit record names); `answer` reads success and refusal alike.
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { startHarness, type ApiResponse, type Harness } from "../support/harness.js";
import { ltCompanyCode } from "../support/codes.js";
import { answer, invalid } from "../support/expect.js";
import { UUID, ISO_INSTANT as ISO } from "../support/patterns.js";
import { sleep } from "../support/timing.js";
import { world } from "../support/world.js";
import type { AccountingApi, RequestBody, WithResponse } from "../../sdk/typescript/src/index.js";

let h: Harness;
let accountId: string;
let key: string;
let keyId: string;
let companyA: string;
let companyB: string;
beforeAll(async () => {
  h = await startHarness();
  ({ accountId, apiKey: key, keyId, companyId: companyA } = await world(h, { company: { vatCode: "LT100001919017" } }));
  companyB = (await acct().account.companies.create({ name: "Antra UAB", code: ltCompanyCode(), countryCode: "LT" })).id;
  await h.sdk(key, companyB).ledger.accounts.applyTemplate({ template: "lt-standard" });
});
afterAll(() => h.close());

/** The account-level client of the main key (or of `other`). */
const acct = (other = key): AccountingApi => h.sdk(other);
/** The main key's client on company A. */
const A = (): AccountingApi => h.sdk(key, companyA);

/** account/audit-log/list with a key (the main one by default). */
const audit = (body: RequestBody<"account_audit_log_list">, withKey = key) => answer(acct(withKey).account.auditLog.list.withResponse(body));

let seq = 0;
const unique = (prefix: string) => `${prefix}${++seq}`;
const journal = (date: string, amount = "12.34") => ({
  date,
  entries: [
    { accountCode: "2710", debit: amount },
    { accountCode: "3010", credit: amount },
  ],
});

async function ok(call: Promise<WithResponse<unknown>>) {
  const res = await answer(call);
  if (res.status !== 200) throw new Error(`-> ${res.status} ${JSON.stringify(res.body)}`);
  return res;
}

const auditRows = () => h.db("audit_log").where({ account_id: accountId }).orderBy("id");

/** Runs `fn` and returns the audit rows it added to the account's log. */
async function added(fn: () => Promise<unknown>) {
  const before = (await auditRows()).map((r) => String(r.id));
  await fn();
  return (await auditRows()).filter((r) => !before.includes(String(r.id)));
}

interface MutationCase {
  operation: string;
  company: "A" | null;
  run(): Promise<ApiResponse>;
  /** The ids the record must name (from the response). */
  targets(res: ApiResponse): string[];
  /** What the summary must hold. */
  summary(res: ApiResponse): Record<string, unknown>;
  /** The table of the created or changed row, to check it was written in the same database transaction. */
  table?: (res: ApiResponse) => { table: string; where: Record<string, unknown> };
}

const CASES: MutationCase[] = [
  {
    operation: "account.companies.create",
    company: null,
    run: () => answer(acct().account.companies.create.withResponse({ name: "Trečia UAB", code: ltCompanyCode(), countryCode: "LT" })),
    targets: (res) => [res.body.id],
    summary: (res) => ({ code: res.body.code, name: "Trečia UAB" }),
    table: (res) => ({ table: "companies", where: { id: res.body.id } }),
  },
  {
    operation: "partners.create",
    company: "A",
    run: () => answer(A().partners.create.withResponse({ name: "Partneris UAB", code: unique("P") })),
    targets: (res) => [res.body.id],
    summary: (res) => ({ code: res.body.code, name: "Partneris UAB" }),
    table: (res) => ({ table: "partners", where: { id: res.body.id } }),
  },
  {
    operation: "account.api-keys.create",
    company: null,
    run: () => answer(acct().account.apiKeys.create.withResponse({ name: "Buhalterė", scopes: ["ledger:read"] })),
    targets: (res) => [res.body.id],
    summary: () => ({ name: "Buhalterė" }),
    table: (res) => ({ table: "api_keys", where: { id: res.body.id } }),
  },
  {
    operation: "ledger.accounts.create",
    company: "A",
    run: () => answer(A().ledger.accounts.create.withResponse({ code: unique("9"), name: "Nauja sąskaita", type: "expense" })),
    targets: (res) => [res.body.id],
    summary: (res) => ({ code: res.body.code, name: "Nauja sąskaita" }),
    table: (res) => ({ table: "ledger_accounts", where: { company_id: companyA, id: res.body.id } }),
  },
  {
    operation: "ledger.accounts.update",
    company: "A",
    run: async () => {
      const code = unique("8");
      await ok(A().ledger.accounts.create.withResponse({ code, name: "Before", type: "expense" }));
      return answer(A().ledger.accounts.update.withResponse({ code, name: "After" }));
    },
    targets: (res) => [res.body.id],
    summary: (res) => ({ code: res.body.code, name: "After" }),
    table: (res) => ({ table: "ledger_accounts", where: { company_id: companyA, id: res.body.id } }),
  },
  {
    operation: "ledger.journal.transactions.create",
    company: "A",
    run: () => answer(A().ledger.journal.transactions.create.withResponse(journal("2026-01-20"))),
    targets: (res) => [res.body.id],
    summary: () => ({ date: "2026-01-20", documentType: "manual" }),
    table: (res) => ({ table: "journal_transactions", where: { company_id: companyA, id: res.body.id } }),
  },
  {
    operation: "ledger.journal.transactions.reverse",
    company: "A",
    run: async () => {
      const tx = await ok(A().ledger.journal.transactions.create.withResponse(journal("2026-01-21")));
      return answer(A().ledger.journal.transactions.reverse.withResponse({ id: tx.body.id }));
    },
    targets: (res) => [res.body.id],
    summary: () => ({ date: "2026-01-21", documentType: "reversal" }),
    table: (res) => ({ table: "journal_transactions", where: { company_id: companyA, id: res.body.id } }),
  },
  {
    operation: "ledger.periods.lock",
    company: "A",
    run: () => answer(A().ledger.periods.lock.withResponse({ month: "2024-02" })),
    targets: () => [],
    // Which months were locked: MUST_MENTION below.
    summary: () => ({}),
    table: () => ({ table: "ledger_period_locks", where: { company_id: companyA, month: "2024-02-01" } }),
  },
  {
    operation: "ledger.periods.unlock",
    company: "A",
    run: async () => {
      await ok(A().ledger.periods.lock.withResponse({ month: "2024-05" }));
      return answer(A().ledger.periods.unlock.withResponse({ month: "2024-05" }));
    },
    targets: () => [],
    summary: () => ({ month: "2024-05" }),
  },
  {
    operation: "ledger.posting-rules.update",
    company: "A",
    run: () => answer(A().ledger.postingRules.update.withResponse({ rule: "bank.fees", accountCode: "6209" })),
    targets: () => [],
    summary: () => ({}),
    table: () => ({ table: "posting_rules", where: { company_id: companyA, rule: "bank.fees" } }),
  },
  {
    // Written by the issue's numbering statement itself (src/sales/numbering.ts), with the number it takes.
    operation: "sales.invoices.issue",
    company: "A",
    run: async () => {
      const partnerCode = unique("C");
      await ok(A().partners.create.withResponse({ name: "Pirkėjas UAB", code: partnerCode }));
      const line = { description: "Konsultacija", quantity: "2", unitPriceExclVat: "50", vatRatePercent: "21" };
      const draft = await ok(A().sales.invoices.create.withResponse({ partnerCode, issueDate: "2026-02-10", lines: [line] }));
      return answer(A().sales.invoices.issue.withResponse({ id: draft.body.id }));
    },
    targets: (res) => [res.body.id],
    summary: (res) => ({ number: res.body.number, type: "invoice", grossTotal: "121.00", currency: "EUR" }),
    table: (res) => ({ table: "sale_invoices", where: { company_id: companyA, id: res.body.id } }),
  },
  {
    operation: "reference.series.create",
    company: "A",
    run: () => answer(A().reference.series.create.withResponse({ documentType: "journal", prefix: unique("S"), year: 2030 })),
    targets: (res) => [res.body.id],
    summary: () => ({ documentType: "journal" }),
    table: (res) => ({ table: "number_series", where: { company_id: companyA, id: res.body.id } }),
  },
  {
    operation: "reference.exchange-rates.set",
    company: "A",
    run: () => answer(A().reference.exchangeRates.set.withResponse({ currency: "USD", date: "2026-03-02", rate: "1.0845" })),
    targets: () => [],
    summary: () => ({ currencyCode: "USD", date: "2026-03-02" }),
    table: () => ({ table: "exchange_rate_overrides", where: { company_id: companyA, currency_code: "USD", rate_date: "2026-03-02" } }),
  },
];

/** The words a summary must contain to identify the change, where the default summary cannot know them. */
const MUST_MENTION: Record<string, string[]> = {
  "ledger.periods.lock": ["2024-02"],
  "ledger.posting-rules.update": ["bank.fees", "6209"],
};

describe("every successful mutation writes exactly one record", () => {
  test.each(CASES.map((c) => [c.operation, c] as const))("%s", async (operation, c) => {
    let res!: ApiResponse;
    const rows = await added(async () => {
      res = await c.run();
    });
    expect(res.status).toBe(200);
    // The setup of some cases is a mutation too; the last record is the operation's own.
    const own = rows.filter((r) => r.operation === operation);
    expect(own).toHaveLength(1);
    expect(rows[rows.length - 1]).toBe(own[0]);
    const record = own[0];
    const companyId = c.company === "A" ? companyA : null;
    expect(record).toMatchObject({ account_id: accountId, key_id: keyId, company_id: companyId, request_id: res.headers.get("x-request-id") });
    expect(record.target_ids).toEqual(c.targets(res));
    expect(Object.keys(record.summary).length).toBeGreaterThan(0);
    expect(record.summary).toMatchObject(c.summary(res));
    for (const word of MUST_MENTION[operation] ?? []) expect(JSON.stringify(record.summary)).toContain(word);
    // Never the secret of a new key.
    if (res.body?.key) expect(JSON.stringify(record)).not.toContain(res.body.key);

    // The same record through the API.
    const listed = await audit({ filter: [{ field: "id", op: "eq", value: Number(record.id) }] });
    expect(listed.body.rows).toEqual([
      {
        id: Number(record.id),
        occurredAt: expect.stringMatching(ISO),
        operation,
        companyId,
        keyId,
        targetIds: c.targets(res),
        summary: record.summary,
        requestId: res.headers.get("x-request-id"),
      },
    ]);

    // Written by the mutation's own database transaction (an unlock deletes its row: no row is left to compare).
    expect(c.table !== undefined || operation === "ledger.periods.unlock").toBe(true);
    if (c.table) {
      const { table, where } = c.table(res);
      const [{ xmin }] = await h.db(table).where(where).select(h.db.raw("xmin::text as xmin"));
      const [{ xmin: auditXmin }] = await h.db("audit_log").where({ account_id: accountId, id: record.id }).select(h.db.raw("xmin::text as xmin"));
      expect(auditXmin).toBe(xmin);
    }
  });
});

describe("no record", () => {
  test.each([
    {
      name: "an unbalanced journal transaction (422)",
      run: () =>
        answer(
          A().ledger.journal.transactions.create.withResponse({
            date: "2026-02-01",
            entries: [
              { accountCode: "2710", debit: "1.00" },
              { accountCode: "3010", credit: "2.00" },
            ],
          }),
        ),
      status: 422,
    },
    {
      name: "a duplicate account code (409)",
      run: () => answer(A().ledger.accounts.create.withResponse({ code: "2410", name: "Dup", type: "asset" })),
      status: 409,
    },
    {
      name: "a posting into a locked month (409)",
      run: async () => {
        await answer(A().ledger.periods.lock.withResponse({ month: "2023-01" }));
        return answer(A().ledger.journal.transactions.create.withResponse(journal("2023-01-15")));
      },
      status: 409,
      setupRecords: 1,
    },
    { name: "an invalid body (400)", run: () => answer(A().partners.create.withResponse(invalid({ name: "" }))), status: 400 },
    {
      name: "a posting rule on a header account (422)",
      run: () => answer(A().ledger.postingRules.update.withResponse({ rule: "bank.fees", accountCode: "62" })),
      status: 422,
    },
    { name: "unlocking an open month (409)", run: () => answer(A().ledger.periods.unlock.withResponse({ month: "2022-01" })), status: 409 },
  ])("for a failed mutation: $name", async ({ run, status, setupRecords }) => {
    let res!: ApiResponse;
    const rows = await added(async () => {
      res = await run();
    });
    expect(res.status).toBe(status);
    expect(rows).toHaveLength(setupRecords ?? 0);
  });

  test.each<[string, () => Promise<WithResponse<unknown>>]>([
    ["account/audit-log/list", () => acct().account.auditLog.list.withResponse({})],
    ["ledger/accounts/list", () => A().ledger.accounts.list.withResponse({})],
    ["ledger/accounts/get", () => A().ledger.accounts.get.withResponse({ code: "2410" })],
    ["ledger/journal/transactions/list", () => A().ledger.journal.transactions.list.withResponse({ totals: ["debit"] })],
    ["ledger/periods/list", () => A().ledger.periods.list.withResponse({})],
    ["ledger/posting-rules/list", () => A().ledger.postingRules.list.withResponse({})],
    ["partners/list", () => A().partners.list.withResponse({})],
  ])("for a read: %s", async (_path, read) => {
    let res!: ApiResponse;
    const rows = await added(async () => {
      res = await answer(read());
    });
    expect(res.status).toBe(200);
    expect(rows).toHaveLength(0);
  });

  test.each<[string, () => (options: { idempotencyKey: string }) => Promise<WithResponse<unknown>>]>([
    [
      "partners.create",
      () => {
        const input = { name: "Kartojamas", code: unique("R") };
        return (options) => A().partners.create.withResponse(input, options);
      },
    ],
    [
      "ledger.journal.transactions.create",
      () => {
        const input = journal("2026-02-03");
        return (options) => A().ledger.journal.transactions.create.withResponse(input, options);
      },
    ],
  ])("for an idempotent replay of %s", async (operation, make) => {
    const options = { idempotencyKey: unique("idem-") };
    const send = make();
    let first!: ApiResponse;
    let replay!: ApiResponse;
    const rows = await added(async () => {
      first = await answer(send(options));
      replay = await answer(send(options));
    });
    expect({ first: first.status, replay: replay.status, header: replay.headers.get("x-idempotent-replay"), same: replay.body.id === first.body.id }).toEqual({
      first: 200,
      replay: 200,
      header: "true",
      same: true,
    });
    expect(rows.map((r) => [r.operation, r.target_ids])).toEqual([[operation, [first.body.id]]]);
  });
});

describe("list", () => {
  let tx1: ApiResponse;
  let tx2: ApiResponse;
  let partnerB: ApiResponse;
  let between: string;
  beforeAll(async () => {
    tx1 = await ok(A().ledger.journal.transactions.create.withResponse(journal("2026-04-01")));
    await sleep(20);
    // The moment by the database's clock, which stamps occurredAt (not this process's).
    between = new Date((await h.db.raw<{ rows: { t: Date }[] }>("select clock_timestamp() as t")).rows[0].t).toISOString();
    await sleep(20);
    tx2 = await ok(A().ledger.journal.transactions.create.withResponse(journal("2026-04-02")));
    partnerB = await ok(h.sdk(key, companyB).partners.create.withResponse({ name: "B partneris", code: unique("PB") }));
  });

  const ids = (res: ApiResponse) => res.body.rows.map((r: { id: number }) => r.id);

  test("newest first by default, every record of the account", async () => {
    const res = await audit({ pageSize: 500 });
    const db = await auditRows();
    expect({ ids: ids(res), total: res.body.total }).toEqual({ ids: db.map((r) => Number(r.id)).reverse(), total: db.length });
    expect(res.body.rows[0]).toMatchObject({ operation: "partners.create", targetIds: [partnerB.body.id] });
  });

  test.each<{ name: string; filter: () => NonNullable<RequestBody<"account_audit_log_list">["filter"]>; expected: (rows: any[]) => any[] }>([
    {
      name: "targetId",
      filter: () => [{ field: "targetId", op: "eq", value: tx1.body.id }],
      expected: (rows: any[]) => rows.filter((r) => r.target_ids.includes(tx1.body.id)),
    },
    {
      name: "operation",
      filter: () => [{ field: "operation", op: "eq", value: "ledger.journal.transactions.create" }],
      expected: (rows: any[]) => rows.filter((r) => r.operation === "ledger.journal.transactions.create"),
    },
    {
      name: "companyId B",
      filter: () => [{ field: "companyId", op: "eq", value: companyB }],
      expected: (rows: any[]) => rows.filter((r) => r.company_id === companyB),
    },
    {
      name: "occurredAt after a moment",
      filter: () => [{ field: "occurredAt", op: "gte", value: between }],
      expected: (rows: any[]) => rows.filter((r) => new Date(r.occurred_at) >= new Date(between)),
    },
    {
      name: "occurredAt before a moment",
      filter: () => [{ field: "occurredAt", op: "lte", value: between }],
      expected: (rows: any[]) => rows.filter((r) => new Date(r.occurred_at) <= new Date(between)),
    },
    {
      name: "operation and companyId",
      filter: () => [
        { field: "operation", op: "eq", value: "partners.create" },
        { field: "companyId", op: "eq", value: companyB },
      ],
      expected: (rows: any[]) => rows.filter((r) => r.operation === "partners.create" && r.company_id === companyB),
    },
  ])("filter on $name", async ({ filter, expected }) => {
    const res = await audit({ filter: filter(), pageSize: 500 });
    expect(res.status).toBe(200);
    const want = expected(await auditRows())
      .map((r) => Number(r.id))
      .reverse();
    expect(want.length).toBeGreaterThan(0);
    expect(ids(res)).toEqual(want);
  });

  test("the occurredAt filters split the records around the moment between two postings", async () => {
    const after = await audit({ filter: [{ field: "occurredAt", op: "gte", value: between }], pageSize: 500 });
    const targetsAfter = after.body.rows.flatMap((r: { targetIds: string[] }) => r.targetIds);
    expect(targetsAfter).toContain(tx2.body.id);
    expect(targetsAfter).not.toContain(tx1.body.id);
  });

  test("a key restricted to company A sees only A's records", async () => {
    const restricted = await ok(acct().account.apiKeys.create.withResponse({ name: "Tik A", scopes: ["account:read", "ledger:read"], companyIds: [companyA] }));
    const res = await audit({ pageSize: 500 }, restricted.body.key);
    expect(res.status).toBe(200);
    const inAOnly = (await auditRows())
      .filter((r) => r.company_id === companyA)
      .map((r) => Number(r.id))
      .reverse();
    expect(inAOnly.length).toBeGreaterThan(0);
    expect({ ids: ids(res), total: res.body.total }).toEqual({ ids: inAOnly, total: inAOnly.length });
    const forB = await audit({ filter: [{ field: "companyId", op: "eq", value: companyB }] }, restricted.body.key);
    expect(forB.body).toMatchObject({ rows: [], total: 0 });
  });

  test("another account sees none of them", async () => {
    const other = await h.tenant();
    const res = await audit({ pageSize: 500 }, other.apiKey);
    expect(res.status).toBe(200);
    const ours = new Set((await auditRows()).map((r) => r.request_id));
    expect(res.body.rows.filter((r: { requestId: string }) => ours.has(r.requestId))).toEqual([]);
    expect(res.body.rows.every((r: { companyId: string | null }) => r.companyId === null || r.companyId === other.companyId)).toBe(true);
    expect((await audit({ filter: [{ field: "targetId", op: "eq", value: tx1.body.id }] }, other.apiKey)).body.total).toBe(0);
  });

  test("a key without account:read cannot list (403)", async () => {
    const ledgerOnly = await ok(acct().account.apiKeys.create.withResponse({ name: "Tik ledger", scopes: ["ledger:write"] }));
    const res = await audit({}, ledgerOnly.body.key);
    expect({ status: res.status, code: res.body.error.code }).toEqual({ status: 403, code: "forbidden" });
  });

  test("records are shaped as the contract says", async () => {
    const res = await audit({ filter: [{ field: "targetId", op: "eq", value: tx2.body.id }] });
    expect(res.body.rows).toEqual([
      {
        id: expect.any(Number),
        occurredAt: expect.stringMatching(ISO),
        operation: "ledger.journal.transactions.create",
        companyId: companyA,
        keyId: expect.stringMatching(UUID),
        targetIds: [tx2.body.id],
        summary: expect.objectContaining({ date: "2026-04-02" }),
        requestId: tx2.headers.get("x-request-id"),
      },
    ]);
  });
});

describe("records cannot be changed", () => {
  test.each([
    ["update", "update audit_log set summary = '{}'::jsonb"],
    ["update of one row", "update audit_log set operation = 'x' where id = (select min(id) from audit_log)"],
    ["delete", "delete from audit_log"],
    ["truncate", "truncate audit_log"],
  ])("%s is refused by the database", async (_name, sql) => {
    const before = await h.db("audit_log").select("*").orderBy(["account_id", "id"]);
    expect(before.length).toBeGreaterThan(0);
    await expect(h.db.raw(sql)).rejects.toThrow(/cannot be changed or deleted/);
    expect(await h.db("audit_log").select("*").orderBy(["account_id", "id"])).toEqual(before);
  });

  test("the contract offers only the list", async () => {
    const doc = (await (await h.get("/openapi.json")).json()) as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths).filter((p) => p.startsWith("/v1/account/audit-log"))).toEqual(["/v1/account/audit-log/list"]);
  });
});
