// A SAF-T file whose worker process is killed (kill -9) mid-file (issue 27): the job runs again in another worker
// process (src/worker-recovery.ts finds the dead one), which writes the file from its first part again — the same
// bytes for the same books — and marks it ready. The first worker is held mid-file by the test: it has stored part 1
// and waits to store part 2, whose key the test holds in an open transaction of its own.
import { afterAll, beforeAll, expect, test } from "@jest/globals";
import pg from "pg";
import { startHarness, type Harness } from "../support/harness.js";
import { startServerProcess } from "../support/processes.js";
import { until } from "../support/timing.js";
import { world } from "../support/world.js";
import { waitForLockWaiters } from "../support/db-waits.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

test("a worker killed after part 1 of 2: another worker writes the file again, part 1 byte for byte the same", async () => {
  const w = await world(h, {
    company: {
      address: { line1: "Gedimino pr. 1", city: "Vilnius", postalCode: "LT-01103", countryCode: "LT" },
      contactPerson: { firstName: "Ona", lastName: "Onaitė", phone: "+370 600 00000" },
    },
  });
  for (let day = 1; day <= 5; day++) {
    await w.api.ledger.journal.transactions.create({
      date: `2026-03-0${day}`,
      entries: [
        { accountCode: "2710", debit: `${day}.00` },
        { accountCode: "5000", credit: `${day}.00` },
      ],
    });
  }
  const env = { DATABASE_URL: h.connectionString, SAFT_PART_SIZE: "3", WORKER_SWEEP_INTERVAL_MS: "300", LOG_LEVEL: "warn" };
  const { id } = await w.api.declarations.lt.saft.generate({ from: "2026-03-01", to: "2026-03-31", dataType: "GL" });
  // Part 2's key, taken by the test before any worker runs: the first worker's insert of part 2 waits for it.
  const holder = new pg.Client({ connectionString: h.connectionString });
  await holder.connect();
  await holder.query("begin");
  await holder.query(
    "insert into saft_file_parts (company_id, file_id, part_number, file_name, content, bytes, sha256) values ($1, $2, 2, 'held', '\\x00', 1, repeat('0', 64))",
    [w.companyId, id],
  );
  const first = await startServerProcess(env, []);
  let part1: { sha256: string; bytes: string } | undefined;
  try {
    await waitForLockWaiters(h.db, { queryLike: "%saft_file_parts%", what: "the first worker storing part 2" });
    part1 = await h.db("saft_file_parts").where({ company_id: w.companyId, file_id: id, part_number: 1 }).first("sha256", "bytes");
    expect(part1).toBeDefined();
    expect(await h.db("saft_files").where({ company_id: w.companyId, id }).first("status", "rows_written", "rows_total")).toEqual({
      status: "running",
      rows_written: "3",
      rows_total: "5",
    });
    await first.kill9();
  } finally {
    await holder.query("rollback");
    await holder.end();
  }

  const second = await startServerProcess(env, []);
  try {
    const file = await until("the file to be written by the second worker", async () => {
      const f = await w.api.declarations.lt.saft.get({ id });
      return f.status === "ready" || f.status === "failed" ? f : undefined;
    });
    expect(file).toMatchObject({ status: "ready", progress: { rowsWritten: 5, rowsTotal: 5 } });
    expect(file.parts.map((p) => p.partNumber)).toEqual([1, 2]);
    expect({ sha256: file.parts[0].sha256, bytes: String(file.parts[0].bytes) }).toEqual(part1);
    expect(file.parts[1].fileName).not.toBe("held");
  } finally {
    await second.stop();
  }
}, 120_000);
