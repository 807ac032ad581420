import type { Config } from "../config.js";
import type { Db } from "../db/connection.js";

/** What tasks may use besides their payload and graphile-worker's helpers. */
export interface JobDeps {
  db: Db;
  config: Config;
}
