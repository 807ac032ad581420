// The large-body operations (migration/books/validate and /import, up to 32 MB) are bounded per account and per
// process, before their body is read (issue 22, item 4): a second upload of one account while the first is in
// progress is 429 upload.in_progress with Retry-After; another account is served meanwhile; once the first has been
// answered the next one is admitted. The bound is an advisory lock held by an open transaction, so it is seen in
// pg_locks: that is how the test knows the first upload was admitted (no timing). The bodies are parsed and checked
// in a worker thread; their 400s are the pipeline's own. (The latency the worker saves is measured by
// `npm run bench -- faults`, not here.) Raw HTTP where the test is about the wire: a body held half-sent, a second
// process's port, bytes past the limit, malformed JSON; the rest through the SDK.
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import http from "node:http";
import { startHarness, type Harness } from "../support/harness.js";
import { expectApiError, expectError } from "../support/expect.js";
import { startServerProcess } from "../support/processes.js";
import { until } from "../support/timing.js";
import { agreeingPackage, booksWorld, storedRows, type BooksWorld } from "../support/books.js";

let h: Harness;
beforeAll(async () => {
  // Two large uploads at once per process, so that a third account meets the process's own bound.
  h = await startHarness({ config: { largeBodySlots: 2 } });
}, 180_000);
afterAll(() => h.close());

/** Admitted large uploads now: the advisory locks their admissions hold. */
const admitted = async () =>
  Number(
    (
      await h.db.raw<{ rows: { n: number }[] }>(
        `select count(*)::int as n from pg_locks l join pg_stat_activity s on s.pid = l.pid
          where l.locktype = 'advisory' and l.granted and s.datname = current_database() and s.query like '%''upload:''%'`,
      )
    ).rows[0].n,
  );

/** An upload whose body is half sent: admitted, and waiting for the rest of its body until `finish()`. */
function halfSent(w: BooksWorld, op: "validate" | "import", text: string) {
  const body = Buffer.from(text);
  const { hostname, port } = new URL(h.url);
  const req = http.request({
    hostname,
    port,
    path: `/v1/migration/books/${op}`,
    method: "POST",
    headers: { authorization: `Bearer ${w.apiKey}`, "x-company-id": w.companyId, "content-type": "application/json", "content-length": body.length },
  });
  const answer = new Promise<{ status: number; body: any }>((resolve, reject) => {
    req.on("response", (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode!, body: JSON.parse(Buffer.concat(chunks).toString("utf8")) }));
    });
    req.on("error", reject);
  });
  const half = Math.floor(body.length / 2);
  req.write(body.subarray(0, half));
  return { answer, finish: () => req.end(body.subarray(half)) };
}

describe("one large upload per account at a time", () => {
  test("a second upload of the account is 429 upload.in_progress with Retry-After; another account is served; the next one after the answer is admitted", async () => {
    const a = await booksWorld(h);
    const b = await booksWorld(h);
    const c = await booksWorld(h);
    const beforeA = await storedRows(h, a);
    const first = halfSent(a, "validate", JSON.stringify(agreeingPackage()));
    await until("A's first upload to be admitted", async () => (await admitted()) === 1);

    // A again, validate or import: refused before its body is read; nothing stored.
    const again = await expectApiError(a.api.migration.books.validate(agreeingPackage()), 429, "rate_limited", "upload.in_progress");
    expect([again.headers.get("retry-after"), again.params]).toEqual(["5", { retryAfterSeconds: 5 }]);
    await expectApiError(a.api.migration.books.import(agreeingPackage()), 429, "rate_limited", "upload.in_progress");
    expect(await storedRows(h, a)).toEqual(beforeA);

    // Another account: its upload and its other requests are served meanwhile.
    expect((await b.api.migration.books.validate(agreeingPackage())).dryRun).toBe(true);
    expect((await b.api.partners.list({})).rows).toEqual([]);

    // With a second upload held (B's), the process takes no third (LARGE_BODY_SLOTS = 2 here), from any account.
    const second = halfSent(b, "import", JSON.stringify(agreeingPackage()));
    await until("B's upload to be admitted", async () => (await admitted()) === 2);
    const busy = await expectApiError(c.api.migration.books.validate(agreeingPackage()), 429, "rate_limited", "upload.server_busy");
    expect(busy.headers.get("retry-after")).toBe("5");
    expect((await c.api.partners.list({})).rows).toEqual([]);

    first.finish();
    second.finish();
    expect([(await first.answer).status, (await first.answer).body.dryRun]).toEqual([200, true]);
    expect([(await second.answer).status, (await second.answer).body.openReceivables]).toEqual([200, { created: 3, outstandingTotal: "1610.00" }]);
    expect(await admitted()).toBe(0);

    // Answered: A's next upload, one after the other, is admitted; so is C's.
    expect((await a.api.migration.books.validate(agreeingPackage())).dryRun).toBe(true);
    expect((await a.api.migration.books.import(agreeingPackage())).dryRun).toBe(false);
    expect((await storedRows(h, a)).saleInvoices).toBe(3);
    expect((await c.api.migration.books.validate(agreeingPackage())).dryRun).toBe(true);
  });

  test("across API processes on one database: the account's upload held by one process is refused by another", async () => {
    const a = await booksWorld(h);
    const b = await booksWorld(h);
    const other = await startServerProcess({ DATABASE_URL: h.connectionString });
    try {
      const first = halfSent(a, "validate", JSON.stringify(agreeingPackage()));
      await until("A's upload to be admitted", async () => (await admitted()) === 1);
      const post = (w: BooksWorld, body: unknown) =>
        fetch(`${other.url}/v1/migration/books/validate`, {
          method: "POST",
          headers: { authorization: `Bearer ${w.apiKey}`, "x-company-id": w.companyId, "content-type": "application/json" },
          body: JSON.stringify(body),
        }).then(async (res) => ({ status: res.status, retryAfter: res.headers.get("retry-after"), body: (await res.json()) as any }));
      const refused = await post(a, agreeingPackage());
      expect([refused.status, refused.retryAfter, refused.body.error.key]).toEqual([429, "5", "upload.in_progress"]);
      const served = await post(b, agreeingPackage());
      expect([served.status, served.body.dryRun]).toEqual([200, true]);
      first.finish();
      expect((await first.answer).status).toBe(200);
      const next = await post(a, agreeingPackage());
      expect([next.status, next.body.dryRun]).toEqual([200, true]);
    } finally {
      await other.stop();
    }
  }, 180_000);

  test("an upload refused with 413 or 400 ends its admission: the account's next upload is admitted", async () => {
    const a = await booksWorld(h);
    const over = Buffer.alloc(33_554_433, " ");
    over.write("{}");
    expectError(
      await h.post("/v1/migration/books/validate", undefined, { key: a.apiKey, companyId: a.companyId, rawBody: over }),
      413,
      "payload_too_large",
      "request.body_too_large",
    );
    expectError(
      await h.post("/v1/migration/books/validate", undefined, { key: a.apiKey, companyId: a.companyId, rawBody: "{" }),
      400,
      "validation",
      "request.invalid",
    );
    expect(await admitted()).toBe(0);
    expect((await a.api.migration.books.validate(agreeingPackage())).dryRun).toBe(true);
  });
});

describe("a large body is parsed and validated in a worker thread, with the pipeline's own answers", () => {
  test.each([
    ["not JSON", '{"cutoverDate": ', undefined, { body: ["is not valid JSON: Unexpected end of JSON input"] }],
    ["not sent as JSON", "{}", "text/plain", { body: ["must be sent with Content-Type: application/json"] }],
    ["empty", "", undefined, { body: ["is required (send {} when there is nothing to say)"] }],
    [
      "a lone surrogate",
      '{"cutoverDate": "2026-07-01", "source": "\\ud800"}',
      undefined,
      { source: ["must not contain a lone UTF-16 surrogate (an unpaired \\uD800-\\uDFFF escape)"] },
    ],
    ["a missing and an unknown property", '{"nera": 1}', undefined, { cutoverDate: ["is required"], nera: ["is not a known property"] }],
  ])("%s: 400 request.invalid naming the field", async (_name, text, contentType, fieldErrors) => {
    const w = await booksWorld(h);
    for (const op of ["validate", "import"]) {
      const res = await h.post(`/v1/migration/books/${op}`, undefined, { key: w.apiKey, companyId: w.companyId, rawBody: text, contentType });
      expectError(res, 400, "validation", "request.invalid");
      expect(res.body.error.fieldErrors).toEqual(fieldErrors);
    }
  });
});
