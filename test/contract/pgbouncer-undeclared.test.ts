// An operator who points DATABASE_URL at a transaction-pooling PgBouncer without saying so (no DATABASE_POOLING, no
// DIRECT_DATABASE_URL) gets a working service, not 500s (issue 15): the first "prepared statement … does not exist /
// already exists" switches the pool to unnamed statements, the request's transaction runs again, and the log says
// once what to configure. The real PgBouncer of the machine (Debian's 1.18, as CI installs it) sits in between.
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { randomBytes } from "node:crypto";
import { installed, PGBOUNCER, startPgBouncer, type RunningPiece } from "../../bench/infra.js";
import { loadConfig } from "../../src/config.js";
import { createDb, withDatabase, type Db } from "../../src/db/connection.js";
import { bootstrapAccount } from "../../src/account/accounts.js";
import { createContractApi, loadDocument } from "../../src/http/openapi.js";
import { createLogger } from "../../src/log.js";
import { startApiServer, type ApiServer } from "../../src/server.js";
import { ltCompanyCode } from "../support/codes.js";
import { createTestDatabase } from "../support/harness.js";
import { captureLogs } from "../support/logs.js";

const run = installed(PGBOUNCER) ? describe : describe.skip;
if (!installed(PGBOUNCER)) console.warn(`skipped: ${PGBOUNCER} is not installed (apt-get install pgbouncer; .ci/run installs it)`);

run("DATABASE_URL is a transaction-pooling PgBouncer nobody declared", () => {
  let bouncer: RunningPiece;
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let db: Db;
  let server: ApiServer;
  const logs = captureLogs("warn");

  beforeAll(async () => {
    bouncer = await startPgBouncer(process.env.TEST_PG_ADMIN_URL!, { anyDatabase: true, poolSize: 3 });
    database = await createTestDatabase();
    // As the service would be set up from DATABASE_URL alone: named statements on.
    db = createDb({ connectionString: withDatabase(bouncer.url, database.name), poolMax: 12, log: logs.log });
    const config = { ...loadConfig(), host: "127.0.0.1", port: 0, rateLimitPerMinute: 100_000, logLevel: "silent", secretsKey: randomBytes(32) };
    server = await startApiServer({ db, config, log: createLogger("silent"), contract: await createContractApi(loadDocument()) });
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await db?.destroy();
    await database?.drop();
    await bouncer?.stop();
  });

  test("60 writes and reads from 12 clients all succeed; the pool goes unnamed, and the log says so once", async () => {
    const url = `http://127.0.0.1:${server.port}`;
    const { apiKey } = await bootstrapAccount(db, "Tarpininkas");
    const post = async (path: string, body: unknown, companyId?: string) => {
      const res = await fetch(url + path, {
        method: "POST",
        headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json", ...(companyId ? { "x-company-id": companyId } : {}) },
        body: JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as any };
    };
    const company = await post("/v1/account/companies/create", { name: "Tarpininkas UAB", code: ltCompanyCode(), countryCode: "LT" });
    expect(company.status).toBe(200);
    const statuses = await Promise.all(
      Array.from({ length: 12 }, async (_, client) => {
        const seen: number[] = [];
        for (let i = 0; i < 5; i++) {
          seen.push((await post("/v1/partners/create", { name: `Partneris ${client}-${i}`, code: `P${client}-${i}` }, company.body.id)).status);
          seen.push((await post("/v1/partners/list", { pageSize: 1 }, company.body.id)).status);
        }
        return seen;
      }),
    );
    expect(statuses.flat().filter((s) => s !== 200)).toEqual([]);
    expect(await db("partners").where({ company_id: company.body.id }).count({ n: "*" })).toEqual([{ n: "60" }]);
    const warnings = logs.lines().filter((l) => String(l.knex ?? "").includes("named prepared statements do not survive"));
    expect(warnings).toHaveLength(1);
  }, 120_000);
});
