import type { Config } from "../config.js";
import type { Db } from "../db/connection.js";
import type { Logger } from "../log.js";

/** What tasks may use besides their payload and graphile-worker's helpers. */
export interface JobDeps {
  db: Db;
  config: Config;
  /** The worker's logger (startWorker sets it); tasks fall back to a logger of their own. */
  log?: Logger;
}
