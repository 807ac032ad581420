// Which PostgreSQL to use: DATABASE_URL when set, else the embedded server under DATA_DIR.
import type { Config } from "./config.js";
import { startEmbeddedPostgres } from "./db/embedded.js";

export interface DatabaseTarget {
  connectionString: string;
  /** Stops the embedded server when this process started it; nothing otherwise. */
  release(): Promise<void>;
}

export async function resolveDatabase(config: Config): Promise<DatabaseTarget> {
  if (config.databaseUrl) return { connectionString: config.databaseUrl, release: async () => undefined };
  const embedded = await startEmbeddedPostgres({ dataDir: config.dataDir, port: config.embeddedPgPort });
  return { connectionString: embedded.connectionString, release: () => embedded.stop() };
}
