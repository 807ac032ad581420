// knex CLI configuration (e.g. `npx knex migrate:status --knexfile knexfile.ts`). The application itself
// migrates at start through src/db/migrate.ts with the same migration list.
import { migrationSource } from "./src/db/migrations/index.js";

const config = {
  client: "pg",
  connection: process.env.DATABASE_URL ?? "postgres://postgres:postgres@127.0.0.1:54329/accounting",
  migrations: { migrationSource },
};

export default config;
