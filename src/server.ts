// Composes one API server: contract, handlers, Koa app, HTTP listener, and its graceful close.
import { createServer, STATUS_CODES, type Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import type { Document } from "openapi-backend";
import type { Config } from "./config.js";
import type { Db } from "./db/connection.js";
import { loadHandlers } from "./handlers/index.js";
import type { Handler } from "./handlers/types.js";
import { ApiError } from "./shared/errors.js";
import { createApp, newRequestId } from "./http/app.js";
import { toEnvelope } from "./http/envelope.js";
import { createContractApi, type ContractApi } from "./http/openapi.js";
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
  /** The contract, already prepared (tests share one with their response checks); default: made from `document`. */
  contract?: ContractApi;
  /** Handlers of operations that have no file under src/handlers (only with `document`). */
  extraHandlers?: Map<string, Handler>;
  port?: number;
}

export async function startApiServer(options: ApiServerOptions): Promise<ApiServer> {
  const contract = options.contract ?? (await createContractApi(options.document, { precompileRequestValidators: true }));
  const extra = options.extraHandlers ?? new Map<string, Handler>();
  const handlers = await loadHandlers([...contract.operations.values()].filter((op) => !extra.has(op.operationId)));
  for (const [operationId, handler] of extra) handlers.set(operationId, handler);
  const app = createApp({ db: options.db, config: options.config, log: options.log, contract, handlers });
  const server = createServer(app.callback());
  server.keepAliveTimeout = 65_000;
  // A request (headers and body) must arrive within REQUEST_TIMEOUT_MS, its headers within HEADERS_TIMEOUT_MS;
  // Node's defaults (300 s, 60 s) let a slow client hold a connection, and a request, open for minutes.
  server.requestTimeout = options.config.requestTimeoutMs;
  server.headersTimeout = Math.min(options.config.headersTimeoutMs, options.config.requestTimeoutMs);
  const apiVersion = (contract.document.info as { version: string }).version;
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Socket) => answerClientError(error, socket, options.log, apiVersion));
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

/** What a request that Node's HTTP parser refused (or that timed out) is told: the error envelope, with a request id. */
function describeClientError(code: string | undefined): { field: string; key: string; message: string } {
  switch (code) {
    case "HPE_HEADER_OVERFLOW":
      return { field: "headers", key: "request.headers_too_large", message: "The request's headers are too large." };
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return { field: "body", key: "request.timeout", message: "The request did not arrive in time." };
    case "HPE_INVALID_HEADER_TOKEN":
    case "HPE_INVALID_CONSTANT":
    case "HPE_LF_EXPECTED":
    case "HPE_CR_EXPECTED":
      return { field: "headers", key: "request.malformed", message: "The request's headers are not valid HTTP." };
    default:
      return { field: "request", key: "request.malformed", message: "The request is not valid HTTP." };
  }
}

function answerClientError(error: NodeJS.ErrnoException, socket: Socket, log: Logger, apiVersion: string): void {
  const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (error.code === "ECONNRESET" || !socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  const requestId = newRequestId();
  const { field, key, message } = describeClientError(error.code);
  const status = 400;
  const body = JSON.stringify(toEnvelope(new ApiError("validation", message, { key, fieldErrors: { [field]: [message] } }), requestId));
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
      `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `X-Request-Id: ${requestId}\r\nX-Api-Version: ${apiVersion}\r\nX-Content-Type-Options: nosniff\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n${body}`,
  );
  log.info({ requestId, status, clientError: error.code ?? "unknown" }, "request refused by the HTTP parser");
}
