// Composes one API server: contract, handlers, Koa app, HTTP listener, and its graceful close.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Document } from "openapi-backend";
import type { Config } from "./config.js";
import type { Db } from "./db/connection.js";
import { loadHandlers } from "./handlers/index.js";
import type { Handler } from "./handlers/types.js";
import { createApp } from "./http/app.js";
import { createContractApi } from "./http/openapi.js";
import type { Logger } from "./log.js";

export interface ApiServer {
  server: Server;
  port: number;
  /** Stops accepting connections and waits (up to the timeout) for in-flight requests to finish. */
  close(): Promise<void>;
}

export interface ApiServerOptions {
  db: Db;
  config: Config;
  log: Logger;
  /** Another contract document (tests add operations to prove cross-cutting rules); default generated/openapi.yaml. */
  document?: Document;
  /** Handlers of operations that have no file under src/handlers (only with `document`). */
  extraHandlers?: Map<string, Handler>;
  port?: number;
}

export async function startApiServer(options: ApiServerOptions): Promise<ApiServer> {
  const contract = await createContractApi(options.document);
  const extra = options.extraHandlers ?? new Map<string, Handler>();
  const handlers = await loadHandlers([...contract.operations.values()].filter((op) => !extra.has(op.operationId)));
  for (const [operationId, handler] of extra) handlers.set(operationId, handler);
  const app = createApp({ db: options.db, config: options.config, log: options.log, contract, handlers });
  const server = createServer(app.callback());
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? options.config.port, options.config.host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    server,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        const force = setTimeout(() => server.closeAllConnections(), options.config.shutdownTimeoutMs);
        server.close(() => {
          clearTimeout(force);
          resolve();
        });
        server.closeIdleConnections();
      }),
  };
}
