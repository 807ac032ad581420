// A declaration reads many statements (counts, partners, batches of documents, the ledger); they must see one state
// of the books. Outside a write it runs them in its own repeatable-read, read-only transaction; inside one (a
// submission) it uses that transaction, which already sees its own state.
import type { Db } from "../db/connection.js";

// Their statements are large (one month of documents through window functions) and the planner's estimates of
// jsonb_array_elements and CTE scans run high, so PostgreSQL's JIT would compile them: seconds of compilation for
// well under a second of work (17 s of JIT for 15,000 documents, measured). JIT is off for the transaction. Their
// sorts and hashes run over a month of documents: work_mem is 64 MB for the transaction (4 MB, the default, spilled
// FR0600's sorts of 30,000 documents to disk).
export async function inOneSnapshot<T>(db: Db, work: (trx: Db) => Promise<T>): Promise<T> {
  if (db.isTransaction) {
    await db.raw("set local jit = off; set local work_mem = '64MB'");
    return work(db);
  }
  return db.transaction(async (trx) => {
    await trx.raw("set transaction isolation level repeatable read, read only");
    await trx.raw("set local jit = off; set local work_mem = '64MB'");
    return work(trx);
  });
}

/** The database's time now in Vilnius, `YYYY-MM-DDTHH:MM:SS` (i.SAF FileDateCreated), and its date. */
export async function vilniusNow(db: Db): Promise<{ dateTime: string; date: string }> {
  const { rows } = await db.raw<{ rows: { t: string }[] }>(`select to_char(now() at time zone 'Europe/Vilnius', 'YYYY-MM-DD"T"HH24:MI:SS') as t`);
  return { dateTime: rows[0].t, date: rows[0].t.slice(0, 10) };
}
