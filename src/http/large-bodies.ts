// The operations the contract marks `x-large-body` (the historical-books package, up to 32 MB; issue 22, item 4):
//
// 1. Admission, before the body is read. One at a time per account, across every API process on the database: a
//    transaction-level advisory lock on the account (pg_try_advisory_xact_lock), held by a transaction open on a
//    connection of a small pool of its own for the request's duration — no session state, so it holds behind a
//    transaction-pooling PgBouncer, and it is gone the moment the process holding it dies (its connection closes).
//    A second upload of the account is 429 `upload.in_progress` with Retry-After; at most LARGE_BODY_SLOTS such
//    requests at once per process (429 `upload.server_busy`), which bounds the memory large bodies take.
// 2. The body's JSON parse, input walk (src/shared/json-input.ts), contract validation and digest run in a worker thread
//    (./body-worker.ts, LARGE_BODY_WORKERS of them), where the body stays; the event loop gets the digest and runs
//    the operation's tasks there (src/handlers/offloaded.ts). A 32 MB body so never holds the event loop: measured
//    in `npm run bench -- faults` (README). A worker takes one body at a time, from its parse to the end of its first
//    task (a parsed 32 MB package takes a few hundred MB of heap); admitted requests beyond the workers wait for one
//    with their raw bytes (32 MB each). After that task the worker keeps only the body's bytes until it is released.
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import pg from "pg";
import type { Db } from "../db/connection.js";
import { ApiError, type ErrorCode, type FieldErrors } from "../shared/errors.js";
import type { OffloadedBody } from "../handlers/types.js";
import type { Logger } from "../log.js";
import type { Document } from "openapi-backend";
import type { OperationInfo } from "./openapi.js";

/** Seconds a refused upload is told to wait (Retry-After): about what a 32 MB validate takes. */
export const UPLOAD_RETRY_AFTER_SECONDS = 5;

export type WorkerRequest =
  | { type: "prepare"; id: number; operationId: string; contentType: string | undefined; headers: Record<string, string>; raw: Uint8Array; withHash: boolean }
  | { type: "run"; id: number; bodyId: number; task: string; args: unknown }
  | { type: "release"; bodyId: number };

export type WorkerReply =
  | { id: number; ok: unknown }
  | { id: number; apiError: { code: ErrorCode; message: string; key?: string; params?: Record<string, unknown>; fieldErrors?: FieldErrors } }
  | { id: number; error: { message: string; stack?: string } };

interface PoolWorker {
  worker: Worker;
  ready: Promise<void>;
  /** Holds a body now (one at a time). */
  busy: boolean;
  pending: Map<number, { resolve(value: unknown): void; reject(error: unknown): void }>;
}

export interface LargeBodyOptions {
  /** Large-body requests this process takes at once (LARGE_BODY_SLOTS). */
  slots: number;
  /** Worker threads (LARGE_BODY_WORKERS); default: one per CPU but one, at least one. */
  workers?: number;
  /** The contract the threads validate bodies against (the server's own). */
  document: Document;
}

export class LargeBodies {
  private lockPool: pg.Pool | undefined;
  private inUse = 0;
  private readonly workers: PoolWorker[] = [];
  /** Requests waiting for a worker that holds no body, first come first served. */
  private readonly waiting: ((w: PoolWorker) => void)[] = [];
  /** Accounts with a large upload admitted in this process (the lock says so across processes; this, at once). */
  private readonly admitted = new Set<string>();
  private nextId = 1;
  private readonly size: number;

  constructor(
    private readonly db: Db,
    private readonly options: LargeBodyOptions,
    private readonly log?: Logger,
  ) {
    this.size = options.workers ?? Math.max(1, availableParallelism() - 1);
  }

  /**
   * Admits one large-body request of the account, or throws 429 with the key that says why. The returned function
   * ends the admission (awaited before the answer is sent, so that the account's next request is admitted).
   */
  async admit(accountId: string): Promise<() => Promise<void>> {
    const inProgress = () =>
      new ApiError(
        "rate_limited",
        `Another migration/books/validate or migration/books/import of this account is in progress; they run one at a time. Retry after ${UPLOAD_RETRY_AFTER_SECONDS} seconds.`,
        { key: "upload.in_progress", params: { retryAfterSeconds: UPLOAD_RETRY_AFTER_SECONDS } },
      );
    if (this.admitted.has(accountId)) throw inProgress();
    if (this.inUse >= this.options.slots) {
      throw new ApiError(
        "rate_limited",
        `This server is taking ${this.options.slots} large uploads at once. Retry after ${UPLOAD_RETRY_AFTER_SECONDS} seconds.`,
        {
          key: "upload.server_busy",
          params: { retryAfterSeconds: UPLOAD_RETRY_AFTER_SECONDS },
        },
      );
    }
    this.inUse++;
    let client: pg.PoolClient | undefined;
    try {
      client = await this.pool().connect();
      await client.query("begin");
      // A server's idle_in_transaction_session_timeout would end the lock while the body arrives.
      await client.query("set local idle_in_transaction_session_timeout = 0");
      const { rows } = await client.query<{ admitted: boolean }>("select pg_try_advisory_xact_lock(hashtextextended('upload:' || $1::text, 0)) as admitted", [
        accountId,
      ]);
      if (!rows[0].admitted) throw inProgress();
    } catch (error) {
      await this.end(client);
      throw error;
    }
    this.admitted.add(accountId);
    const held = client;
    let ended = false;
    return async () => {
      if (ended) return;
      ended = true;
      this.admitted.delete(accountId);
      await this.end(held);
    };
  }

  private async end(client: pg.PoolClient | undefined): Promise<void> {
    this.inUse--;
    if (!client) return;
    try {
      await client.query("rollback");
      client.release();
    } catch (error) {
      // The connection is gone, and the lock with it.
      client.release(error as Error);
    }
  }

  private pool(): pg.Pool {
    const { connectionString } = this.db.client.config.connection as { connectionString: string };
    if (!this.lockPool) {
      // Idle connections do not keep the process alive (a server that closes leaves nothing open behind it).
      const pool = new pg.Pool({ connectionString, max: this.options.slots, application_name: "accounting-api", allowExitOnIdle: true });
      const warn = (error: Error) => this.log?.warn({ err: error }, "large-body admission connection error");
      pool.on("error", warn);
      pool.on("connect", (client) => client.on("error", warn));
      this.lockPool = pool;
    }
    return this.lockPool;
  }

  /** Parses, validates and digests the body in a worker thread; 400 as the pipeline would answer it. */
  async prepare(
    op: OperationInfo,
    request: { contentType: string | undefined; headers: Record<string, string>; raw: Buffer; withHash: boolean },
  ): Promise<OffloadedBody & { requestHash?: string; release(): void }> {
    const w = await this.acquire();
    const id = this.nextId++;
    // Moved to the worker, not copied; a small body may sit in Node's shared buffer pool, which must not move.
    const owned = request.raw.byteOffset === 0 && request.raw.byteLength === request.raw.buffer.byteLength;
    const raw = owned ? new Uint8Array(request.raw.buffer, 0, request.raw.byteLength) : new Uint8Array(request.raw);
    // The worker is this body's from its parse until its first task has run: then the worker drops the parsed body
    // (keeping its bytes, should a retried transaction run a task again) and takes the next one, while this request
    // goes on writing (an import's writes take seconds). Released: the bytes go too.
    let freed = false;
    const free = () => {
      if (freed) return;
      freed = true;
      w.busy = false;
      this.handOver(w);
    };
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      if (this.workers.includes(w)) w.worker.postMessage({ type: "release", bodyId: id } satisfies WorkerRequest);
      free();
    };
    try {
      await w.ready;
      const { digest, requestHash } = (await this.send(
        w,
        { type: "prepare", id, operationId: op.operationId, contentType: request.contentType, headers: request.headers, raw, withHash: request.withHash },
        [raw.buffer as ArrayBuffer],
      )) as {
        digest: unknown;
        requestHash?: string;
      };
      return {
        digest,
        requestHash,
        run: <T>(task: string, args: unknown) => (this.send(w, { type: "run", id: this.nextId++, bodyId: id, task, args }) as Promise<T>).finally(free),
        release,
      };
    } catch (error) {
      release();
      throw error;
    }
  }

  private send(w: PoolWorker, message: Exclude<WorkerRequest, { type: "release" }>, transfer: ArrayBuffer[] = []): Promise<unknown> {
    if (!this.workers.includes(w)) return Promise.reject(new Error("the worker thread holding this body has ended"));
    return new Promise((resolve, reject) => {
      // A thread with work in hand keeps the process alive; an idle one does not (see spawn).
      if (w.pending.size === 0) w.worker.ref();
      w.pending.set(message.id, { resolve, reject });
      w.worker.postMessage(message, transfer);
    });
  }

  /** A worker that holds no body: a free one, a new one while fewer than the pool's size run, or the next freed. */
  private acquire(): Promise<PoolWorker> {
    const free = this.workers.find((w) => !w.busy) ?? (this.workers.length < this.size ? this.spawn() : undefined);
    if (free) {
      free.busy = true;
      return Promise.resolve(free);
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  /** A freed worker goes to the first request waiting for one (or, if it ended, a new one does). */
  private handOver(w: PoolWorker): void {
    const next = this.waiting.shift();
    if (!next) return;
    const to = this.workers.includes(w) ? w : this.spawn();
    to.busy = true;
    next(to);
  }

  private spawn(): PoolWorker {
    // The service runs as TypeScript through tsx's loader (package.json), and so does the thread. It lives as long as
    // the process (starting one takes seconds: the contract's validators); it collects its garbage whenever it holds
    // no body, so a 32 MB package's heap does not outlive its request.
    const worker = new Worker(new URL("./body-worker.ts", import.meta.url), {
      execArgv: ["--import", "tsx"],
      workerData: { document: this.options.document },
    });
    let ready!: () => void;
    let failed!: (error: unknown) => void;
    const w: PoolWorker = { worker, busy: false, pending: new Map(), ready: new Promise<void>((res, rej) => ((ready = res), (failed = rej))) };
    w.ready.catch(() => undefined);
    worker.on("message", (m: WorkerReply) => {
      if (m.id === 0) return ready();
      const waiting = w.pending.get(m.id);
      if (!waiting) return;
      w.pending.delete(m.id);
      if (w.pending.size === 0) worker.unref();
      if ("ok" in m) waiting.resolve(m.ok);
      else if ("apiError" in m)
        waiting.reject(
          new ApiError(m.apiError.code, m.apiError.message, { key: m.apiError.key, params: m.apiError.params, fieldErrors: m.apiError.fieldErrors }),
        );
      else waiting.reject(Object.assign(new Error(`large-body worker: ${m.error.message}`), { stack: m.error.stack }));
    });
    const gone = (error: unknown) => {
      const index = this.workers.indexOf(w);
      if (index >= 0) this.workers.splice(index, 1);
      failed(error);
      for (const waiting of w.pending.values()) waiting.reject(error);
      w.pending.clear();
    };
    worker.on("error", (error) => {
      this.log?.error({ err: error }, "large-body worker thread failed");
      gone(error);
    });
    worker.on("exit", (code) => gone(new Error(`large-body worker thread exited (${code})`)));
    // After the listeners (adding one refs the thread again): an idle thread does not keep the process alive, one
    // with a request in hand does (send); while it starts, the request that started it is waiting on `ready`.
    w.ready.then(
      () => w.pending.size === 0 && worker.unref(),
      () => undefined,
    );
    this.workers.push(w);
    return w;
  }
}
