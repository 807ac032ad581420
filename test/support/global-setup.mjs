// Once per test run: a PostgreSQL server (DATABASE_URL's, or an embedded one in a temporary directory) and a
// template database with every migration applied. Each test file clones the template (test/support/harness.ts).
import { randomBytes } from "node:crypto";
import { chmodSync, mkdtempSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { tsImport } from "tsx/esm/api";

// Jest runs this file outside its module system (no moduleNameMapper), so the TypeScript sources are loaded
// through tsx.
const { withDatabase } = await tsImport("../../src/db/connection.ts", import.meta.url);
const { startEmbeddedPostgres } = await tsImport("../../src/db/embedded.ts", import.meta.url);
const { migrate } = await tsImport("../../src/db/migrate.ts", import.meta.url);
const { loadDocument } = await tsImport("../../src/http/openapi.ts", import.meta.url);

async function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

export default async function globalSetup() {
  // The servers of the run (in-process and the child processes test/support/processes.ts starts with DATABASE_URL,
  // which refuse to start without one) share one secrets key.
  process.env.SECRETS_KEY ||= randomBytes(32).toString("base64");
  let adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) {
    const dataDir = mkdtempSync(join(tmpdir(), "acct-test-"));
    chmodSync(dataDir, 0o755); // as root, the server runs as the `postgres` user, which must reach the directory
    const embedded = await startEmbeddedPostgres({
      dataDir,
      port: await freePort(),
      database: "postgres",
      ephemeral: true,
      settings: { fsync: "off", synchronous_commit: "off", full_page_writes: "off", max_connections: "300", track_commit_timestamp: "on" },
    });
    globalThis.__embeddedPostgres = embedded;
    adminUrl = embedded.adminConnectionString;
  }
  const template = `acct_template_${process.pid}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`drop database if exists "${template}"`);
  await admin.query(`create database "${template}"`);
  await admin.end();
  const templateUrl = withDatabase(adminUrl, template);
  await migrate(templateUrl);
  process.env.TEST_PG_ADMIN_URL = adminUrl;
  // generated/openapi.yaml parsed once for the run: every test file reads the JSON copy (parsing the YAML takes
  // a second or two per file; JSON.parse a few milliseconds).
  const documentDir = mkdtempSync(join(tmpdir(), "acct-test-doc-"));
  process.env.TEST_OPENAPI_JSON = join(documentDir, "openapi.json");
  writeFileSync(process.env.TEST_OPENAPI_JSON, JSON.stringify(loadDocument()));
  process.env.TEST_PG_TEMPLATE = template;
  // TEST_VIA_PGBOUNCER=1: every test server's pool connects through PgBouncer in transaction pooling (issue 15), so
  // any statement that needs a session fails the suite. Test databases are still created on the direct connection.
  if (process.env.TEST_VIA_PGBOUNCER === "1") {
    const { startPgBouncer } = await tsImport("../../bench/infra.ts", import.meta.url);
    const bouncer = await startPgBouncer(adminUrl, { anyDatabase: true, poolSize: 10 });
    globalThis.__pgbouncer = bouncer;
    process.env.TEST_PGBOUNCER_URL = bouncer.url;
  }
}
