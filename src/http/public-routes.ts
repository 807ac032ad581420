// Routes outside the contract: liveness, the OpenAPI document, and the browsable reference page.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import Router from "@koa/router";
import type Koa from "koa";
import YAML from "yaml";
import { DEFAULT_PUBLIC_URL, type Config } from "../config.js";
import type { Db } from "../db/connection.js";
import { ApiError } from "../shared/errors.js";
import type { ContractApi } from "./openapi.js";
import { DOCUMENT_PATH } from "./openapi.js";
import { pendingMigrations } from "../db/migrate.js";
import { hit } from "./rate-limit.js";

const require = createRequire(import.meta.url);
const swaggerDir = dirname(require.resolve("swagger-ui-dist/package.json"));
const SWAGGER_ASSETS: Record<string, string> = {
  "swagger-ui.css": "text/css; charset=utf-8",
  "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
  "favicon-32x32.png": "image/png",
};

/**
 * The reference page. Its links carry the path of PUBLIC_URL (`https://example.com/accounting` → `/accounting/…`), so
 * they stay right behind a proxy that serves the API under a path.
 */
const docsPage = (base: string) => `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Accounting API reference</title>
  <link rel="icon" href="${base}/docs/assets/favicon-32x32.png">
  <link rel="stylesheet" href="${base}/docs/assets/swagger-ui.css">
</head>
<body>
  <nav style="font: 14px/1.5 sans-serif; padding: 12px 20px; border-bottom: 1px solid #ddd">
    Download the contract:
    OpenAPI 3.0 <a href="${base}/openapi.json" download="accounting-api.openapi.json">JSON</a> · <a href="${base}/openapi.yaml" download="accounting-api.openapi.yaml">YAML</a>
    (what the server validates against) ·
    OpenAPI 3.1 <a href="${base}/openapi.3.1.json" download="accounting-api.openapi.3.1.json">JSON</a> · <a href="${base}/openapi.3.1.yaml" download="accounting-api.openapi.3.1.yaml">YAML</a>
    (with the <code>webhooks</code> section). A typed TypeScript SDK generated from it is in the repository's <code>sdk/typescript</code>.
  </nav>
  <div id="reference"></div>
  <footer id="license" style="font: 13px/1.5 sans-serif; padding: 12px 20px; border-top: 1px solid #ddd; color: #555">
    License: proprietary. The API and this reference are provided by the operator of this server under its own terms of use.
  </footer>
  <script src="${base}/docs/assets/swagger-ui-bundle.js"></script>
  <script src="${base}/docs/init.js"></script>
</body>
</html>`;

const SWAGGER_OPTIONS = `dom_id: "#reference", deepLinking: true, docExpansion: "none", defaultModelsExpandDepth: 0`;

/**
 * Swagger UI's start. With PUBLIC_URL set, "Try it out" sends to the document's server, PUBLIC_URL. Without it the
 * document names http://localhost:3000, which is wrong for a page loaded from anywhere else (issue 28): the page then
 * loads the document itself and names the origin it was loaded from as the server.
 */
const docsInit = (base: string, publicUrlSet: boolean) =>
  publicUrlSet
    ? `window.ui = SwaggerUIBundle({ url: ${JSON.stringify(`${base}/openapi.json`)}, ${SWAGGER_OPTIONS} });`
    : `fetch(${JSON.stringify(`${base}/openapi.json`)})
  .then((response) => response.json())
  .then((spec) => {
    spec.servers = [{ url: window.location.origin, description: "This server (the origin of this page; PUBLIC_URL is not set)" }];
    window.ui = SwaggerUIBundle({ spec, ${SWAGGER_OPTIONS} });
  });`;

// The reference page runs only its own scripts and styles, and may not be framed (clickjacking). Swagger UI sets
// inline styles and shows data: images, which the policy allows; nothing else.
const DOCS_SECURITY: Record<string, string> = {
  "Content-Security-Policy":
    "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; font-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
  "X-Frame-Options": "DENY",
  "Referrer-Policy": "no-referrer",
};

const READINESS_TIMEOUT_MS = 3000;

/**
 * The fixed routes are rate-limited per client address like requests without a key (issue 7, defect 10): `/health`
 * queries the database, and the documents are large. When the database cannot count, they are served anyway — they
 * are what an operator looks at during an outage.
 */
function limitByAddress(db: Db, perMinute: number): Koa.Middleware {
  return async (ctx, next) => {
    // Liveness touches nothing and must not wait on the database.
    if (ctx.path === "/health/live") return next();
    let state: Awaited<ReturnType<typeof hit>> | undefined;
    let timer: NodeJS.Timeout | undefined;
    try {
      // Bounded like readiness: a database that does not answer (or a pooler queueing for it) must not hold these.
      const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error("timed out")), READINESS_TIMEOUT_MS)));
      state = await Promise.race([hit(db, `ip:${ctx.ip}`, perMinute), timeout]);
    } catch {
      return next();
    } finally {
      clearTimeout(timer);
    }
    ctx.set("X-RateLimit-Limit", String(state.limit));
    ctx.set("X-RateLimit-Remaining", String(state.remaining));
    ctx.set("X-RateLimit-Reset", String(state.reset));
    if (state.exceeded) {
      ctx.set("Retry-After", String(state.reset));
      throw new ApiError("rate_limited", `Rate limit of ${state.limit} requests per minute exceeded. Retry after ${state.reset} seconds.`, {
        key: "rate_limit.exceeded",
        params: { limit: state.limit, retryAfterSeconds: state.reset },
      });
    }
    return next();
  };
}

export function publicRoutes({ db, contract, config }: { db: Db; contract: ContractApi; config: Config }): Koa.Middleware {
  const router = new Router();
  router.use(limitByAddress(db, config.rateLimitPerMinute));
  // The committed documents name http://localhost:3000 (servers, info, externalDocs); the served ones PUBLIC_URL.
  const published = (text: string) => text.replaceAll(DEFAULT_PUBLIC_URL, config.publicUrl);
  const json = published(JSON.stringify(contract.document));
  const yaml = published(readFileSync(DOCUMENT_PATH, "utf8"));
  const yaml31Path = join(dirname(DOCUMENT_PATH), "openapi.3.1.yaml");
  // The 3.1 copies are read on first request and kept (parsing the YAML costs about a second of the event loop).
  let yaml31: string | undefined;
  let json31: string | undefined;
  const base = new URL(config.publicUrl).pathname.replace(/\/+$/, "");
  const page = docsPage(base);
  // PUBLIC_URL unset is its default (src/config.ts).
  const init = docsInit(base, config.publicUrl !== DEFAULT_PUBLIC_URL);

  // Liveness: the process answers (no database involved, so a slow database never gets a live process restarted).
  // Readiness: the database answers and every migration of this build is applied; a balancer takes a process that
  // is not ready out of rotation. `/health` is readiness, with the version.
  const version = (contract.document.info as { version: string }).version;
  let migrationsCurrent = false;
  // One probe at a time, answered within READINESS_TIMEOUT_MS: behind a PgBouncer that cannot reach the database, a
  // query waits in the pooler's queue rather than failing, and a balancer's probes must not pile up behind it.
  let probe: Promise<void> | undefined;
  const probeDatabase = () =>
    (probe ??= (async () => {
      await db.raw("select 1");
      // Migrations never go backwards, so once current the answer is kept.
      migrationsCurrent ||= (await pendingMigrations(db)).length === 0;
    })().finally(() => (probe = undefined)));
  const readiness = async () => {
    let database = "ok";
    let migrations = "unknown";
    let timer: NodeJS.Timeout | undefined;
    try {
      const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error("timed out")), READINESS_TIMEOUT_MS)));
      await Promise.race([probeDatabase(), timeout]);
      migrations = migrationsCurrent ? "current" : "pending";
    } catch {
      database = "unreachable";
    } finally {
      clearTimeout(timer);
    }
    const ready = database === "ok" && migrations === "current";
    return { status: ready ? 200 : 503, body: { status: ready ? "ok" : "unavailable", database, migrations, version } };
  };
  router.get("/health/live", (ctx) => {
    ctx.body = { status: "ok", version };
  });
  for (const path of ["/health", "/health/ready"]) {
    router.get(path, async (ctx) => {
      const { status, body } = await readiness();
      ctx.status = status;
      ctx.body = body;
    });
  }
  router.get("/openapi.json", (ctx) => {
    ctx.type = "application/json";
    ctx.body = json;
  });
  router.get("/openapi.yaml", (ctx) => {
    ctx.type = "application/yaml";
    ctx.body = yaml;
  });
  router.get("/openapi.3.1.yaml", (ctx) => {
    ctx.type = "application/yaml";
    ctx.body = yaml31 ??= published(readFileSync(yaml31Path, "utf8"));
  });
  router.get("/openapi.3.1.json", (ctx) => {
    ctx.type = "application/json";
    ctx.body = json31 ??= published(JSON.stringify(YAML.parse(readFileSync(yaml31Path, "utf8"))));
  });
  router.get("/docs", (ctx) => {
    ctx.set(DOCS_SECURITY);
    ctx.type = "text/html; charset=utf-8";
    ctx.body = page;
  });
  router.get("/docs/init.js", (ctx) => {
    ctx.type = "text/javascript; charset=utf-8";
    ctx.body = init;
  });
  router.get("/docs/assets/:file", (ctx, next) => {
    const type = SWAGGER_ASSETS[ctx.params.file];
    if (!type) return next(); // the API pipeline answers 404 in the envelope
    ctx.type = type;
    ctx.set("Cache-Control", "public, max-age=86400");
    ctx.body = readFileSync(join(swaggerDir, ctx.params.file));
  });
  return router.routes() as unknown as Koa.Middleware;
}
