// One test file's world: a fresh database cloned from the migrated template, the real API server listening on
// a real port, and two clients whose every response is validated against the OpenAPI document: the SDK generated
// from the contract (sdk/typescript, `h.sdk(...)`: what integrators call, so a contract change that breaks clients
// breaks the type-check), and a raw `h.post` for what no typed client can send (malformed JSON, wrong headers).
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import pg from "pg";
import AjvModule, { type ValidateFunction } from "ajv";
import addFormatsModule from "ajv-formats";
import type { Document } from "openapi-backend";
import { loadConfig, type Config } from "../../src/config.js";
import { createDb, withDatabase, type Db } from "../../src/db/connection.js";
import { bootstrapAccount } from "../../src/account/accounts.js";
import type { Handler } from "../../src/handlers/types.js";
import { createContractApi, loadDocument, type ContractApi } from "../../src/http/openapi.js";
import { createLogger, type Logger } from "../../src/log.js";
import { startApiServer, type ApiServer } from "../../src/server.js";
import { ltCompanyCode } from "./codes.js";
import { AccountingApi } from "../../sdk/typescript/src/index.js";

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export interface RequestOptions {
  key?: string;
  companyId?: string;
  idempotencyKey?: string;
  headers?: Record<string, string>;
  /** Sent as is instead of JSON.stringify(body). */
  rawBody?: string | Buffer;
  contentType?: string | null;
  /** Skips validating the response against the contract (only for responses the contract cannot describe). */
  skipContractCheck?: boolean;
}

export interface Harness {
  url: string;
  db: Db;
  connectionString: string;
  databaseName: string;
  config: Config;
  server: ApiServer;
  post<T = any>(path: string, body?: unknown, options?: RequestOptions): Promise<ApiResponse<T>>;
  get(path: string): Promise<Response>;
  /** An SDK client of this server with that key (and default company), every response checked against the contract. */
  sdk(key: string, companyId?: string): AccountingApi;
  /** A new account with a `*` key, made as the operator CLI makes it. */
  bootstrap(name?: string): Promise<{ accountId: string; apiKey: string; keyId: string }>;
  /** A new account with a key and one LT company (created through the SDK), and the SDK client acting on that company. */
  tenant(overrides?: Record<string, unknown>): Promise<{ accountId: string; apiKey: string; keyId: string; companyId: string; api: AccountingApi }>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  config?: Partial<Config>;
  /** The server's logger (default: silent, or TEST_LOG_LEVEL); see test/support/logs.ts to read what it logs. */
  log?: Logger;
  document?: Document;
  extraHandlers?: Map<string, Handler>;
}

let counter = 0;

let document: Document | undefined;
/**
 * generated/openapi.yaml, read once per test file (createContractApi copies it before dereferencing) from the JSON
 * copy global-setup.mjs wrote for the run.
 */
const sharedDocument = (): Document =>
  (document ??= process.env.TEST_OPENAPI_JSON ? (JSON.parse(readFileSync(process.env.TEST_OPENAPI_JSON, "utf8")) as Document) : loadDocument());

export async function createTestDatabase(): Promise<{ name: string; connectionString: string; drop(): Promise<void> }> {
  const adminUrl = process.env.TEST_PG_ADMIN_URL!;
  const name = `acct_t_${process.pid}_${++counter}_${randomBytes(3).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database "${name}" template "${process.env.TEST_PG_TEMPLATE}"`);
  // A test database needs no commit to reach disk before it is acknowledged: nothing here survives a crash of the
  // PostgreSQL server, and the tests kill API processes, never the server. (The embedded server runs this way for
  // the whole run; on an operator's server with fsync on, this is what keeps the second run of the suite quick.)
  await admin.query(`alter database "${name}" set synchronous_commit = off`);
  await admin.end();
  return {
    name,
    connectionString: withDatabase(adminUrl, name),
    drop: async () => {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`drop database if exists "${name}" with (force)`);
      await client.end();
    },
  };
}

export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const database = await createTestDatabase();
  // Every server the harness starts has a secrets key (SECRETS_KEY, set for the whole run by global-setup.mjs).
  const config: Config = {
    ...loadConfig(),
    host: "127.0.0.1",
    port: 0,
    rateLimitPerMinute: 100_000,
    logLevel: process.env.TEST_LOG_LEVEL ?? "silent",
    secretsKey: Buffer.from(process.env.SECRETS_KEY ?? randomBytes(32).toString("base64"), "base64"),
    ...options.config,
  };
  // With TEST_VIA_PGBOUNCER=1 (test/support/global-setup.mjs) the server's pool goes through PgBouncer in
  // transaction pooling, as DATABASE_POOLING=transaction would make it.
  const bouncer = process.env.TEST_PGBOUNCER_URL;
  const db = bouncer
    ? createDb({ connectionString: withDatabase(bouncer, database.name), poolMax: 20, namedStatements: false })
    : createDb({ connectionString: database.connectionString, poolMax: 20 });
  // One contract for the server and for checking its answers: validators are compiled as operations are first used.
  const contract = await createContractApi(options.document ?? sharedDocument());
  const server = await startApiServer({ db, config, log: options.log ?? createLogger(config.logLevel), contract, extraHandlers: options.extraHandlers });
  const url = `http://127.0.0.1:${server.port}`;

  const post = async <T>(path: string, body: unknown = {}, o: RequestOptions = {}): Promise<ApiResponse<T>> => {
    const headers: Record<string, string> = { ...o.headers };
    if (o.contentType !== null) headers["content-type"] = o.contentType ?? "application/json";
    if (o.key) headers.authorization = `Bearer ${o.key}`;
    if (o.companyId) headers["x-company-id"] = o.companyId;
    if (o.idempotencyKey !== undefined) headers["idempotency-key"] = o.idempotencyKey;
    const res = await fetch(url + path, { method: "POST", headers, body: o.rawBody ?? JSON.stringify(body) });
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      throw new Error(`${path} answered ${res.status} with a body that is not JSON: ${text.slice(0, 200)}`);
    }
    const response = { status: res.status, headers: res.headers, body: parsed as T };
    if (!o.skipContractCheck) assertMatchesContract(contract, path, response);
    return response;
  };

  const bootstrap = (name = "Test account") => bootstrapAccount(db, name);

  // The SDK client every suite may use; every answer is checked against the contract as h.post's are.
  const sdk = (key: string, companyId?: string) =>
    new AccountingApi({
      apiKey: key,
      companyId,
      baseUrl: url,
      // Tests see every answer as the server gave it, and a write carries an Idempotency-Key only when the test gives one.
      maxRetries: 0,
      middleware: [
        {
          async onResponse({ request, response }) {
            const text = await response.clone().text();
            try {
              const body: unknown = text ? JSON.parse(text) : undefined;
              assertMatchesContract(contract, new URL(request.url).pathname, { status: response.status, headers: response.headers, body });
            } catch (e) {
              // The call fails here and nobody reads the response: release its connection, or closing the server waits for it.
              await response.body?.cancel();
              throw e instanceof SyntaxError ? new Error(`${request.url} answered ${response.status} with a body that is not JSON: ${text.slice(0, 200)}`) : e;
            }
          },
        },
      ],
    });

  const tenant = async (overrides: Record<string, unknown> = {}) => {
    const account = await bootstrap();
    const company = await sdk(account.apiKey).account.companies.create({ name: "Bandymas UAB", code: ltCompanyCode(), countryCode: "LT", ...overrides });
    return { ...account, companyId: company.id, api: sdk(account.apiKey, company.id) };
  };

  return {
    url,
    db,
    connectionString: database.connectionString,
    databaseName: database.name,
    config,
    server,
    post,
    get: (path) => fetch(url + path),
    sdk,
    bootstrap,
    tenant,
    close: async () => {
      await server.close();
      await db.destroy();
      await database.drop();
    },
  };
}

const REQUEST_ID = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * Fails the test when a response does not match the contract: the operation's schema for that status (body and
 * headers), or, for a path that is no operation, the error envelope.
 */
export function assertMatchesContract(contract: ContractApi, path: string, response: ApiResponse): void {
  const problems: string[] = [];
  const requestId = response.headers.get("x-request-id");
  if (!requestId || !REQUEST_ID.test(requestId)) problems.push(`X-Request-Id header missing or malformed: ${requestId}`);
  const op = [...contract.operations.values()].find((o) => o.path === path);
  if (op) {
    const validator = contract.backend.validator;
    const bodyResult = validator.validateResponse(response.body, op.operationId, response.status);
    if (bodyResult.errors?.length) problems.push(`body: ${JSON.stringify(bodyResult.errors)}`);
    const declared = op.operation.responses?.[String(response.status)] as
      | { headers?: Record<string, { required?: boolean; schema: { type?: string; enum?: string[] } }> }
      | undefined;
    if (!declared) problems.push(`status ${response.status} is not in the contract`);
    // Declared headers only (openapi-backend's header check treats every declared header as required and every
    // transport header as unknown).
    for (const [name, header] of Object.entries(declared?.headers ?? {})) {
      const value = response.headers.get(name);
      if (value === null) {
        if (header.required) problems.push(`header ${name} is required`);
      } else if (header.schema.type === "integer" && !/^-?[0-9]+$/.test(value)) {
        problems.push(`header ${name} must be an integer, got ${value}`);
      } else if (header.schema.enum && !header.schema.enum.includes(value)) {
        problems.push(`header ${name} must be one of ${header.schema.enum.join(", ")}, got ${value}`);
      }
    }
    if (response.status === 500) {
      for (const name of ["x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset"]) {
        if (response.headers.has(name)) problems.push(`a 500 must not carry ${name}`);
      }
    }
    // Every error key a test sees is one the operation declares for that status (issue 14).
    const key = (response.body as { error?: { key?: string } } | undefined)?.error?.key;
    const keys = (declared as { "x-error-keys"?: string[] } | undefined)?.["x-error-keys"];
    if (declared && response.status !== 200 && key !== undefined && !keys?.includes(key)) {
      problems.push(`error.key ${key} is not among the keys ${op.operationId} declares for ${response.status} (x-error-keys: ${keys?.join(", ")})`);
    }
  } else {
    const validate = envelopeValidator(contract);
    if (!validate(response.body)) problems.push(`error envelope: ${JSON.stringify(validate.errors)}`);
    const key = (response.body as { error?: { key?: string } } | undefined)?.error?.key;
    const doc = contract.document as unknown as Record<string, Record<string, string[]> | undefined>;
    const keys = [...(doc["x-error-keys"]?.[response.status] ?? []), ...(doc["x-unrouted-error-keys"]?.[response.status] ?? [])];
    if (key !== undefined && !keys.includes(key))
      problems.push(`error.key ${key} of a request outside the operations is not declared for ${response.status} (x-error-keys, x-unrouted-error-keys)`);
  }
  if (response.status !== 200 && (response.body as { error?: { requestId?: string } })?.error?.requestId !== requestId) {
    problems.push("error.requestId differs from X-Request-Id");
  }
  if (problems.length)
    throw new Error(`response of ${path} (${response.status}) breaks the contract:\n${problems.join("\n")}\n${JSON.stringify(response.body)}`);
}

let cachedEnvelope: ValidateFunction | undefined;
function envelopeValidator(contract: ContractApi): ValidateFunction {
  if (!cachedEnvelope) {
    const Ajv = ((AjvModule as any).default ?? AjvModule) as typeof AjvModule.default;
    const ajv = new Ajv({ strict: false, allErrors: true });
    ((addFormatsModule as any).default ?? addFormatsModule)(ajv);
    const schemas = (contract.document.components as { schemas: Record<string, unknown> }).schemas;
    for (const [name, schema] of Object.entries(schemas)) ajv.addSchema(schema as object, `#/components/schemas/${name}`);
    cachedEnvelope = ajv.compile({ $ref: "#/components/schemas/ErrorEnvelope" });
  }
  return cachedEnvelope;
}
