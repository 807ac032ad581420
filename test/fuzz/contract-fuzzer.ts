// The contract fuzzer (issue 7): for every operation of the published contract, bodies generated from its request
// schema — valid ones, and ones broken field by field (./mutations.ts) — are sent through the real server with a
// valid key and company, and every answer is held to the contract:
//   - never a 5xx;
//   - every answer validates against the operation's schema for its status (the harness checks each response), so
//     every non-200 is the error envelope;
//   - every 400 names at least one field.
// Nothing here knows any module: a new operation is fuzzed as soon as it is in generated/openapi.yaml.
import fc from "fast-check";
import type { Harness } from "../support/harness.js";
import { mutations } from "./mutations.js";
import { SchemaSampler, type Schema } from "./schema-sampler.js";

export interface FuzzOptions {
  /** Valid bodies per operation. */
  valid: number;
  /** Broken bodies per operation. */
  broken: number;
  seed: number;
}

export interface FuzzFailure {
  operation: string;
  case: string;
  status: number;
  problem: string;
}

export interface FuzzReport {
  operations: number;
  requests: number;
  byStatus: Record<string, number>;
  /** Statuses of the valid bodies alone (broken ones are expected to be 400s). */
  validByStatus: Record<string, number>;
  /** Operations that answered 200 at least once. */
  succeeded: Set<string>;
  failures: FuzzFailure[];
  /** The ten slowest requests (FUZZ_TRACE_MS=<ms> prints every request at least that slow as it goes). */
  slowest: { operation: string; case: string; status: number; ms: number }[];
}

interface Operation {
  operationId: string;
  path: string;
  companyScoped: boolean;
  /** It writes: it takes an Idempotency-Key. */
  mutating: boolean;
  schema: Schema;
  /** The contract's own example request body (realistic codes and ids), when it has one. */
  example: unknown;
}

/** Writes come before reads and destructive actions last, so later operations meet data that exists. */
function phase(path: string): number {
  const action = path.split("/").pop()!;
  if (/^(create|apply-template|import|set|sync|register|issue)$/.test(action)) return 0;
  if (/^(delete|revoke|unlock|lock)$/.test(action)) return 2;
  return 1;
}

/** A seeded source of numbers in [0, 1), so that a run can be repeated from its seed. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 4_294_967_296;
  };
}

const MAX_HINTS_PER_NAME = 20;

/** Remembers scalar values of successful responses by property name, as hints for later bodies. */
function collectHints(value: unknown, hints: Map<string, Set<unknown>>, exclude: Set<unknown>, name?: string): void {
  if (Array.isArray(value)) {
    for (const v of value) collectHints(v, hints, exclude, name);
    return;
  }
  if (value && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) collectHints(v, hints, exclude, k);
    return;
  }
  if (!name || value === null || exclude.has(value) || !["string", "number"].includes(typeof value)) return;
  const set = hints.get(name) ?? new Set();
  if (set.size < MAX_HINTS_PER_NAME) set.add(value);
  hints.set(name, set);
}

export async function fuzzContract(h: Harness, options: FuzzOptions): Promise<FuzzReport> {
  const document = (await (await h.get("/openapi.json")).json()) as { paths: Record<string, any>; components: { schemas: Record<string, Schema> } };
  const operations: Operation[] = Object.entries(document.paths)
    .map(([path, item]) => {
      const op = item.post;
      const body = op.requestBody.content["application/json"];
      return {
        operationId: op.operationId,
        path,
        companyScoped: op["x-company-scoped"] === true || path.startsWith("/v1/declarations/"),
        mutating: String(op["x-required-scope"]).endsWith(":write") && op["x-writes-nothing"] !== true,
        schema: body.schema,
        example: body.example,
      };
    })
    .sort((a, b) => phase(a.path) - phase(b.path) || a.path.localeCompare(b.path));

  // A VAT payer, as the contract's examples are (a company without a VAT code issues no VAT: issue 24).
  const tenant = await h.tenant({ vatCode: "LT100001919017" });
  const hints = new Map<string, Set<unknown>>();
  // The fuzzer's own key must survive the run (api-keys/revoke would otherwise find its id among the hints).
  const exclude = new Set<unknown>([tenant.keyId]);
  const sampler = new SchemaSampler(document.components.schemas, hints);
  const random = seededRandom(options.seed);
  const report: FuzzReport = { operations: operations.length, requests: 0, byStatus: {}, validByStatus: {}, succeeded: new Set(), failures: [], slowest: [] };

  let idempotencyKeys = 0;
  const send = async (op: Operation, label: string, raw: string, idempotencyKey?: string) => {
    let status = 0;
    const started = performance.now();
    try {
      const res = await h.post(op.path, undefined, {
        key: tenant.apiKey,
        companyId: op.companyScoped ? tenant.companyId : undefined,
        rawBody: raw,
        idempotencyKey,
      });
      status = res.status;
      report.byStatus[status] = (report.byStatus[status] ?? 0) + 1;
      if (label.startsWith("valid ")) report.validByStatus[status] = (report.validByStatus[status] ?? 0) + 1;
      if (status === 200) report.succeeded.add(op.operationId);
      if (status >= 500)
        report.failures.push({ operation: op.operationId, case: label, status, problem: `answered ${status}: ${JSON.stringify(res.body).slice(0, 300)}` });
      else if (status === 400 && !Object.keys(res.body?.error?.fieldErrors ?? {}).length) {
        report.failures.push({
          operation: op.operationId,
          case: label,
          status,
          problem: `a 400 that names no field: ${JSON.stringify(res.body).slice(0, 300)}`,
        });
      } else if (status === 200) collectHints(res.body, hints, exclude);
      // The same request again under the same Idempotency-Key is a replay of what the handler answered (a body the
      // contract refuses, 400, never reached it and is refused again; 5xx are not stored).
      if (idempotencyKey && status < 500) {
        const again = await h.post(op.path, undefined, {
          key: tenant.apiKey,
          companyId: op.companyScoped ? tenant.companyId : undefined,
          rawBody: raw,
          idempotencyKey,
        });
        report.requests++;
        if (again.status !== status || (status !== 400 && again.headers.get("x-idempotent-replay") !== "true")) {
          report.failures.push({
            operation: op.operationId,
            case: `${label} (replayed)`,
            status: again.status,
            problem: `replay answered ${again.status} (first ${status}), x-idempotent-replay ${again.headers.get("x-idempotent-replay")}`,
          });
        }
      }
    } catch (error) {
      // The harness throws when an answer breaks the contract (or is not JSON).
      report.failures.push({ operation: op.operationId, case: label, status, problem: String((error as Error).message).slice(0, 600) });
    } finally {
      report.requests++;
      const ms = Math.round(performance.now() - started);
      report.slowest.push({ operation: op.operationId, case: label.slice(0, 120), status, ms });
      report.slowest.sort((a, b) => b.ms - a.ms).splice(10);
      if (process.env.FUZZ_TRACE_MS && ms >= Number(process.env.FUZZ_TRACE_MS))
        process.stderr.write(`slow: ${op.operationId} [${label.slice(0, 120)}] -> ${status} in ${ms} ms\n`);
    }
  };

  // Two passes: the first makes data and learns its ids and codes; the second uses them and breaks bodies. The
  // contract's example comes first (realistic codes get handlers past their lookups) and is the body the broken ones
  // are made from; every third body of a writing operation carries an Idempotency-Key and is sent twice.
  const keyFor = (op: Operation, n: number) => (op.mutating && n % 3 === 0 ? `fuzz-${options.seed}-${++idempotencyKeys}` : undefined);
  for (const pass of [0, 1]) {
    for (const op of operations) {
      const sampled = fc.sample(sampler.arbitrary(op.schema), {
        numRuns: pass ? options.valid : Math.max(2, Math.ceil(options.valid / 3)),
        seed: options.seed + pass,
      });
      const bodies = op.example === undefined ? sampled : [op.example, ...sampled];
      for (const [n, body] of bodies.entries())
        await send(op, `valid ${JSON.stringify(body).slice(0, 200)}`, JSON.stringify(body), pass ? keyFor(op, n) : undefined);
      if (!pass) continue;
      for (const [n, mutation] of mutations(bodies[0] ?? {}, options.broken, random).entries()) await send(op, mutation.label, mutation.raw, keyFor(op, n + 1));
    }
  }
  return report;
}

/** The report as the lines `npm run fuzz` prints. */
export function describeReport(report: FuzzReport, options: FuzzOptions): string {
  const histogram = (byStatus: Record<string, number>) =>
    Object.entries(byStatus)
      .sort(([a], [b]) => Number(a) - Number(b))
      .map(([s, n]) => `${s}: ${n}`)
      .join(", ");
  const lines = [
    `contract fuzzer (seed ${options.seed}): ${report.requests} requests over ${report.operations} operations (${options.valid} valid + ${options.broken} broken bodies each, after a learning pass)`,
    `statuses: ${histogram(report.byStatus)}; of the valid bodies: ${histogram(report.validByStatus)}`,
    `operations that answered 200: ${report.succeeded.size} of ${report.operations}`,
    `slowest: ${report.slowest
      .slice(0, 5)
      .map((r) => `${r.operation} ${r.ms} ms (${r.status})`)
      .join(", ")}`,
    `failures: ${report.failures.length}`,
    ...report.failures.slice(0, 50).map((f) => `  ${f.operation} [${f.case}] -> ${f.status}: ${f.problem}`),
  ];
  return lines.join("\n");
}
