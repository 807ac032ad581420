// Routes outside the contract: liveness, the OpenAPI document, and the browsable reference page.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import Router from "@koa/router";
import type Koa from "koa";
import YAML from "yaml";
import type { Config } from "../config.js";
import type { Db } from "../db/connection.js";
import { ApiError } from "../errors.js";
import type { ContractApi } from "./openapi.js";
import { DOCUMENT_PATH } from "./openapi.js";
import { hit } from "./rate-limit.js";

const require = createRequire(import.meta.url);
const swaggerDir = dirname(require.resolve("swagger-ui-dist/package.json"));
const SWAGGER_ASSETS: Record<string, string> = {
  "swagger-ui.css": "text/css; charset=utf-8",
  "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
  "favicon-32x32.png": "image/png",
};

const DOCS_PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Accounting API reference</title>
  <link rel="icon" href="/docs/assets/favicon-32x32.png">
  <link rel="stylesheet" href="/docs/assets/swagger-ui.css">
</head>
<body>
  <div id="reference"></div>
  <script src="/docs/assets/swagger-ui-bundle.js"></script>
  <script src="/docs/init.js"></script>
</body>
</html>`;

const DOCS_INIT = `window.ui = SwaggerUIBundle({ url: "/openapi.json", dom_id: "#reference", deepLinking: true, docExpansion: "none", defaultModelsExpandDepth: 0 });`;

// The reference page runs only its own scripts and styles, and may not be framed (clickjacking). Swagger UI sets
// inline styles and shows data: images, which the policy allows; nothing else.
const DOCS_SECURITY: Record<string, string> = {
  "Content-Security-Policy":
    "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; font-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
  "X-Frame-Options": "DENY",
  "Referrer-Policy": "no-referrer",
};

/**
 * The fixed routes are rate-limited per client address like requests without a key (issue 7, defect 10): `/health`
 * queries the database, and the documents are large. When the database cannot count, they are served anyway — they
 * are what an operator looks at during an outage.
 */
function limitByAddress(db: Db, perMinute: number): Koa.Middleware {
  return async (ctx, next) => {
    let state;
    try {
      state = await hit(db, `ip:${ctx.ip}`, perMinute);
    } catch {
      return next();
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
  const json = JSON.stringify(contract.document);
  const yaml = readFileSync(DOCUMENT_PATH, "utf8");
  const yaml31Path = join(dirname(DOCUMENT_PATH), "openapi.3.1.yaml");

  router.get("/health", async (ctx) => {
    let database = "ok";
    try {
      await db.raw("select 1");
    } catch {
      database = "unreachable";
    }
    ctx.status = database === "ok" ? 200 : 503;
    ctx.body = { status: database === "ok" ? "ok" : "degraded", database, version: (contract.document.info as { version: string }).version };
  });
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
    ctx.body = readFileSync(yaml31Path, "utf8");
  });
  router.get("/openapi.3.1.json", (ctx) => {
    ctx.type = "application/json";
    ctx.body = JSON.stringify(YAML.parse(readFileSync(yaml31Path, "utf8")));
  });
  router.get("/docs", (ctx) => {
    ctx.set(DOCS_SECURITY);
    ctx.type = "text/html; charset=utf-8";
    ctx.body = DOCS_PAGE;
  });
  router.get("/docs/init.js", (ctx) => {
    ctx.type = "text/javascript; charset=utf-8";
    ctx.body = DOCS_INIT;
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
