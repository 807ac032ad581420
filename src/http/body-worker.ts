// A worker thread of ./large-bodies.ts (issue 22, item 4): the body of an `x-large-body` operation is parsed, walked
// (src/shared/json-input.ts), validated against the contract and digested here, off the event loop, exactly as the pipeline
// does it for any other body (same functions, same 400s). The body then stays here, under the request's id, until
// the handler has run its tasks on it (src/handlers/offloaded.ts) and the event loop releases it.
import { readlinkSync } from "node:fs";
import { setPriority } from "node:os";
import { parentPort, workerData } from "node:worker_threads";
import type { Document } from "openapi-backend";
import { collectGarbage } from "../shared/collect-garbage.js";
import { ApiError, validationError } from "../shared/errors.js";
import { OFFLOADED } from "../handlers/offloaded.js";
import { parseJsonBody } from "./body.js";
import { createContractApi } from "./openapi.js";
import { requestHash } from "./request-hash.js";
import { toFieldErrors } from "./validation.js";
import type { WorkerReply, WorkerRequest } from "./large-bodies.js";

// This thread yields the CPU to the event loop's: on Linux a thread has a nice value of its own, set through its
// thread id (/proc/thread-self names it). Elsewhere it keeps the process's priority.
try {
  setPriority(Number(readlinkSync("/proc/thread-self").split("/").pop()), 10);
} catch {
  // not Linux, or not allowed: the thread runs at the process's priority
}

const contract = await createContractApi((workerData as { document: Document }).document);
/** The bodies held: parsed until a task has run on them, then only their bytes (parsed again if a task runs again). */
const bodies = new Map<number, { operationId: string; contentType: string | undefined; headers: Record<string, string>; raw: Buffer; body: unknown }>();
const port = parentPort!;

function reply(message: WorkerReply): void {
  port.postMessage(message);
}

function failure(id: number, error: unknown): WorkerReply {
  if (error instanceof ApiError)
    return { id, apiError: { code: error.code, message: error.message, key: error.key, params: error.params, fieldErrors: error.fieldErrors } };
  return { id, error: { message: (error as Error)?.message ?? String(error), stack: (error as Error)?.stack } };
}

/** The body parsed and validated exactly as the pipeline does it (same functions, same 400s). */
function parse(operationId: string, contentType: string | undefined, headers: Record<string, string>, raw: Buffer): unknown {
  const op = contract.operations.get(operationId);
  if (!op || !OFFLOADED[operationId]) throw new Error(`operation ${operationId} is not an x-large-body operation with an offload module`);
  const body = parseJsonBody(contentType, raw);
  const validation = contract.backend.validator.validateRequest({ method: "post", path: op.path, headers, body }, op.operation);
  if (!validation.valid) throw validationError(toFieldErrors(validation.errors ?? [], op.headerNames));
  return body;
}

function prepare(m: Extract<WorkerRequest, { type: "prepare" }>): WorkerReply {
  const raw = Buffer.from(m.raw.buffer, m.raw.byteOffset, m.raw.byteLength);
  const body = parse(m.operationId, m.contentType, m.headers, raw);
  const digest = OFFLOADED[m.operationId].digest(body);
  const hash = m.withHash ? requestHash(m.operationId, body) : undefined;
  bodies.set(m.id, { operationId: m.operationId, contentType: m.contentType, headers: m.headers, raw, body });
  return { id: m.id, ok: { digest, requestHash: hash } };
}

function run(m: Extract<WorkerRequest, { type: "run" }>): WorkerReply {
  const held = bodies.get(m.bodyId);
  if (!held) throw new Error(`no body ${m.bodyId} in this worker`);
  const body = held.body ?? parse(held.operationId, held.contentType, held.headers, held.raw);
  held.body = undefined;
  return { id: m.id, ok: OFFLOADED[held.operationId].tasks[m.task](body, m.args) };
}

/** Once no parsed body is held, the heap they took is given back now rather than whenever V8 next collects. */
function collectIfNothingParsed(): void {
  for (const held of bodies.values()) if (held.body !== undefined) return;
  collectGarbage();
}

port.on("message", (m: WorkerRequest) => {
  if (m.type === "release") {
    bodies.delete(m.bodyId);
    collectIfNothingParsed();
    return;
  }
  try {
    reply(m.type === "prepare" ? prepare(m) : run(m));
  } catch (error) {
    reply(failure(m.id, error));
  }
  // After the answer: a task has dropped its parsed body.
  if (m.type === "run") collectIfNothingParsed();
});
reply({ id: 0, ok: "ready" });
