// `npm run migrate`: applies the migrations to the configured database and exits.
import { loadConfig } from "../config.js";
import { createDb } from "../db/connection.js";
import { migrate } from "../db/migrate.js";
import { resolveDatabase } from "../database.js";

const target = await resolveDatabase(loadConfig());
const db = createDb({ connectionString: target.connectionString, poolMax: 2 });
try {
  await migrate(db, target.connectionString);
  console.log("migrations applied");
} finally {
  await db.destroy();
  await target.release();
}
