import pg from "pg";

export default async function globalTeardown() {
  await globalThis.__pgbouncer?.stop();
  const embedded = globalThis.__embeddedPostgres;
  if (embedded) {
    await embedded.stop();
    return;
  }
  const admin = new pg.Client({ connectionString: process.env.TEST_PG_ADMIN_URL });
  await admin.connect();
  await admin.query(`drop database if exists "${process.env.TEST_PG_TEMPLATE}" with (force)`);
  await admin.end();
}
