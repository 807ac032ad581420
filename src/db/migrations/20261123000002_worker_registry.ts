import type { Knex } from "knex";

// Worker crash recovery (issue 7, fault battery). graphile-worker leaves the jobs of a worker that died without
// shutting down (kill -9, lost machine) locked for 4 hours. Each worker process therefore records the ids of its
// graphile workers here and holds a session advisory lock for its lifetime; a sweeper in every worker process
// unlocks the jobs of processes whose lock is free (src/worker-recovery.ts), so their jobs run again within seconds.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table worker_registry (
      worker_id text primary key,
      process_id text not null,
      registered_at timestamptz not null default now()
    );
    create index worker_registry_process_idx on worker_registry (process_id);
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`drop table worker_registry;`);
}
