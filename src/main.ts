// `npm start`: migrations, then the API server and (by default) the worker in this process.
//   --no-worker     API only (run the worker elsewhere with `npm run worker`)
//   --worker-only   worker only (`npm run worker`)
import { loadConfig } from "./config.js";
import { createDb } from "./db/connection.js";
import { migrate } from "./db/migrate.js";
import { resolveDatabase } from "./database.js";
import { createLogger } from "./log.js";
import { resolveSecretsKey } from "./secrets.js";
import { startApiServer, type ApiServer } from "./server.js";
import { startWorker, type Worker } from "./worker.js";

const args = new Set(process.argv.slice(2));
const runApi = !args.has("--worker-only");
const runWorker = !args.has("--no-worker") && process.env.WORKER !== "false";

const config = loadConfig();
const log = createLogger(config.logLevel);
try {
  config.secretsKey = resolveSecretsKey(config);
} catch (error) {
  console.error((error as Error).message);
  log.fatal((error as Error).message);
  log.flush(() => process.exit(1));
  await new Promise(() => undefined);
}
const target = await resolveDatabase(config);
const db = createDb({ connectionString: target.connectionString, poolMax: config.dbPoolMax, namedStatements: target.pooling === "session", log });
await migrate(target.directConnectionString);

let api: ApiServer | undefined;
let worker: Worker | undefined;
if (runApi) {
  api = await startApiServer({ db, config, log });
  log.info({ port: api.port, worker: runWorker, database: config.databaseUrl ? "DATABASE_URL" : "embedded", pooling: target.pooling }, "api listening");
}
if (runWorker) worker = await startWorker(target.directConnectionString, config.workerConcurrency, log, { db, config });

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  log.info({ signal }, "shutting down: finishing in-flight requests");
  try {
    await api?.close();
    await worker?.stop();
    await db.destroy();
    await target.release();
  } catch (error) {
    // Said in the log (not left to an unhandled rejection), and the exit code says the stop was not clean.
    log.error({ err: error }, "shutdown failed");
    log.flush(() => process.exit(1));
    return;
  }
  log.info("stopped");
  log.flush(() => process.exit(0));
}
process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));
