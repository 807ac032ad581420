// Composes one API server: contract, handlers, Koa app, HTTP listener, and its graceful close.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Document } from "openapi-backend";
import type { Config } from "./config.js";
import type { Db } from "./db/connection.js";
import { loadHandlers } from "./handlers/index.js";
import { createApp } from "./http/app.js";
import { createContractApi } from "./http/openapi.js";
import type { Logger } from "./log.js";

export interface ApiServer {
  server: Server;
  port: number;
  /** Stops accepting connections and waits (up to the timeout) for in-flight requests to finish. */
  close(): Promise<void>;
}

export async function startApiServer(options: { db: Db; config: Config; log: Logger; document?: Document; port?: number }): Promise<ApiServer> {
  const contract = await createContractApi(options.document);
  const handlers = await loadHandlers(contract.operations.values());
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
