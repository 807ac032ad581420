// COMMIT sent right behind a transaction's last statement (src/db/transaction.ts, commitBehindLastStatement): every
// API write ends this way (its audit record, a document's numbering statement, or its idempotency record). What is
// committed, what is not, which errors surface and which are retried, and that the connection goes back to the pool
// as a plain one. Against the test database (through PgBouncer when the suite runs through it), on a scratch table.
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import type pg from "pg";
import { createDb, withDatabase, type Db } from "../../src/db/connection.js";
import { commitBehindLastStatement, isConnectionLost, withTransaction } from "../../src/db/transaction.js";
import { waitForLockWaiters } from "../support/db-waits.js";
import { startHarness, type Harness } from "../support/harness.js";

let h: Harness;
/** One connection: every transaction of a test runs on the connection the one before it gave back. */
let db: Db;

beforeAll(async () => {
  h = await startHarness();
  const bouncer = process.env.TEST_PGBOUNCER_URL;
  db = bouncer
    ? createDb({ connectionString: withDatabase(bouncer, h.databaseName), poolMax: 1, namedStatements: false })
    : createDb({ connectionString: h.connectionString, poolMax: 1 });
  await h.db.raw(`
    create table commit_behind_probe (id int primary key, v int not null check (v >= 0));
    create table commit_behind_deferred (v int, constraint commit_behind_deferred_v_key unique (v) deferrable initially deferred);`);
});
afterAll(async () => {
  await db.destroy();
  await h.close();
});

let next = 0;
const ids = (n: number) => Array.from({ length: n }, () => ++next);
const stored = async (...wanted: number[]) => (await h.db("commit_behind_probe").whereIn("id", wanted).orderBy("id").pluck("id")).map(Number);
const insert = (trx: Db, id: number, v = 1) => trx.raw("insert into commit_behind_probe (id, v) values (?, ?)", [id, v]);

/** The pool's one connection, as the driver holds it between transactions. */
async function plainConnection(): Promise<{ pipeline: boolean; ownQuery: boolean }> {
  const connection = (await db.client.acquireConnection()) as pg.PoolClient & { pipeline: boolean };
  try {
    return { pipeline: connection.pipeline, ownQuery: Object.hasOwn(connection, "query") };
  } finally {
    await db.client.releaseConnection(connection);
  }
}

describe("commitBehindLastStatement", () => {
  test("the writes before the last statement and the last statement commit together; the connection is a plain one again", async () => {
    const [a, b] = ids(2);
    const result = await withTransaction(db, async (trx) => {
      await insert(trx, a);
      await commitBehindLastStatement(trx, () => insert(trx, b));
      return "done";
    });
    expect(result).toBe("done");
    expect(await stored(a, b)).toEqual([a, b]);
    expect(await plainConnection()).toEqual({ pipeline: false, ownQuery: false });
    // The next transaction on the same connection runs as any other (its own COMMIT, sent after its statements).
    const [c] = ids(1);
    await withTransaction(db, (trx) => insert(trx, c));
    expect(await stored(c)).toEqual([c]);
  });

  test("a last statement that fails: nothing of the transaction is stored, and the error is the statement's", async () => {
    const [a, b] = ids(2);
    const error = await withTransaction(db, async (trx) => {
      await insert(trx, a);
      await commitBehindLastStatement(trx, () => insert(trx, b, -1));
    }).catch((e: { code?: string; constraint?: string }) => e);
    expect(error).toMatchObject({ code: "23514", constraint: "commit_behind_probe_v_check" });
    expect(await stored(a, b)).toEqual([]);
    expect(await plainConnection()).toEqual({ pipeline: false, ownQuery: false });
  });

  test("a COMMIT that fails (a deferred constraint) rejects the transaction with its error; nothing is stored", async () => {
    const [a, b] = ids(2);
    await h.db("commit_behind_deferred").insert({ v: a });
    const error = await withTransaction(db, async (trx) => {
      await trx("commit_behind_deferred").insert({ v: a });
      await commitBehindLastStatement(trx, () => insert(trx, b));
    }).catch((e: { code?: string; constraint?: string }) => e);
    expect(error).toMatchObject({ code: "23505", constraint: "commit_behind_deferred_v_key" });
    expect(await stored(b)).toEqual([]);
    expect(await h.db("commit_behind_deferred").where({ v: a }).count({ n: "*" })).toEqual([{ n: "1" }]);
  });

  test("a failed last statement is retried as any statement is (a serialization failure): only the second attempt is stored", async () => {
    const [a, b, c] = ids(3);
    let attempts = 0;
    await withTransaction(db, async (trx) => {
      attempts++;
      await insert(trx, attempts === 1 ? a : b);
      await commitBehindLastStatement(trx, () =>
        attempts === 1 ? trx.raw("do $$ begin raise exception 'probe' using errcode = '40001'; end $$") : insert(trx, c),
      );
    });
    expect(attempts).toBe(2);
    expect(await stored(a, b, c)).toEqual([b, c]);
  });

  test("a statement after the last one is refused and never runs", async () => {
    const [a, b] = ids(2);
    const error = await withTransaction(db, async (trx) => {
      await commitBehindLastStatement(trx, () => insert(trx, a));
      await insert(trx, b);
    }).catch((e: Error) => e);
    expect(String(error)).toContain("a statement after the transaction's last one was refused");
    // The last statement was committed with its transaction; the refused one was never sent.
    expect(await stored(a, b)).toEqual([a]);
    expect(await plainConnection()).toEqual({ pipeline: false, ownQuery: false });
  });

  test("in a savepoint it commits nothing early: the enclosing transaction's rollback takes everything back", async () => {
    const [a, b] = ids(2);
    const error = await withTransaction(db, async (trx) => {
      await trx.transaction((savepoint) => commitBehindLastStatement(savepoint, () => insert(savepoint, a)));
      await insert(trx, b);
      throw new Error("the enclosing transaction fails");
    }).catch((e: Error) => e);
    expect(String(error)).toContain("the enclosing transaction fails");
    expect(await stored(a, b)).toEqual([]);
  });

  test("the last statement's locks are released by the server, while this process is still busy after sending it", async () => {
    const [a] = ids(1);
    await h.db("commit_behind_probe").insert({ id: a, v: 0 });
    let busyUntil = 0;
    let waiter: Promise<{ rows: { at: Date }[] }> | undefined;
    await withTransaction(db, async (trx) => {
      await trx.raw("update commit_behind_probe set v = v + 1 where id = ?", [a]);
      // Another session waits for this transaction's row lock.
      waiter = h.db.raw("update commit_behind_probe set v = v + 10 where id = ? returning clock_timestamp() as at", [a]).then((r) => r);
      await waitForLockWaiters(h.db, { queryLike: "update commit_behind_probe set v = v + 10%", what: "the waiting update" });
      await commitBehindLastStatement(trx, async () => {
        const sent = insert(trx, ++next).then((r) => r);
        // The statement and COMMIT are on their way; this process now stays busy for 1.5 s before it could read
        // any answer. Without COMMIT behind the statement, the row lock would be held until after that.
        setImmediate(() => {
          busyUntil = Date.now() + 1500;
          while (Date.now() < busyUntil);
        });
        await sent;
      });
    });
    const [{ at }] = (await waiter!).rows;
    expect(new Date(at).getTime()).toBeLessThan(busyUntil - 500);
    expect(await h.db("commit_behind_probe").where({ id: a }).first("v")).toEqual({ v: 11 });
  });

  test("a connection lost after COMMIT was sent is not retried: the outcome is unknown, so the caller hears of it", async () => {
    const [a, b] = ids(2);
    let attempts = 0;
    const error = await withTransaction(db, async (trx) => {
      attempts++;
      const { rows } = await trx.raw<{ rows: { pid: number }[] }>("select pg_backend_pid() as pid");
      await insert(trx, a);
      await commitBehindLastStatement(trx, async () => {
        const sleeping = trx.raw("select pg_sleep(30)").then((r) => r);
        await waitForSleep(rows[0].pid);
        await h.db.raw("select pg_terminate_backend(?)", [rows[0].pid]);
        await sleeping;
      });
      await insert(trx, b);
    }).catch((e: Error) => e);

    expect(attempts).toBe(1);
    expect(isConnectionLost(error)).toBe(true);
    expect(await stored(a, b)).toEqual([]);
  });
});

/** Waits until the backend `pid` runs pg_sleep (its last statement, with COMMIT queued behind it). */
async function waitForSleep(pid: number): Promise<void> {
  for (const deadline = Date.now() + 30_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 20))) {
    const { rows } = await h.db.raw<{ rows: { n: number }[] }>(
      "select count(*)::int as n from pg_stat_activity where pid = ? and query like 'select pg_sleep%'",
      [pid],
    );
    if (rows[0].n === 1) return;
  }
  throw new Error(`backend ${pid} never ran its pg_sleep`);
}
