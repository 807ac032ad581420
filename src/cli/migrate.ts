// `npm run migrate`: applies the migrations to the configured database (its direct connection) and exits.
import { loadConfig } from "../config.js";
import { migrate } from "../db/migrate.js";
import { resolveDatabase } from "../database.js";

const target = await resolveDatabase(loadConfig());
try {
  await migrate(target.directConnectionString);
  console.log("migrations applied");
} finally {
  await target.release();
}
