// Which PostgreSQL to use: DATABASE_URL when set, else the embedded server under DATA_DIR. The API runs its
// statements on DATABASE_URL, which may be a transaction-pooling PgBouncer; migrations and the worker need a
// session (advisory locks, LISTEN/NOTIFY) and use DIRECT_DATABASE_URL (default: DATABASE_URL).
import type { Config } from "./config.js";
import { startEmbeddedPostgres } from "./db/embedded.js";

export type Pooling = "session" | "transaction";

export interface DatabaseTarget {
  /** What the API's pool connects to (DATABASE_URL): perhaps a pooler. */
  connectionString: string;
  /** A connection with a session of its own (DIRECT_DATABASE_URL): migrations, the worker. */
  directConnectionString: string;
  /** `transaction` when connectionString is a transaction-pooling PgBouncer: no named prepared statements there. */
  pooling: Pooling;
  /** Stops the embedded server when this process started it; nothing otherwise. */
  release(): Promise<void>;
}

export async function resolveDatabase(config: Config): Promise<DatabaseTarget> {
  if (config.databaseUrl) {
    const direct = config.directDatabaseUrl ?? config.databaseUrl;
    return {
      connectionString: config.databaseUrl,
      directConnectionString: direct,
      pooling: config.databasePooling ?? (direct !== config.databaseUrl ? "transaction" : "session"),
      release: async () => undefined,
    };
  }
  const embedded = await startEmbeddedPostgres({ dataDir: config.dataDir, port: config.embeddedPgPort });
  return { connectionString: embedded.connectionString, directConnectionString: embedded.connectionString, pooling: "session", release: () => embedded.stop() };
}
