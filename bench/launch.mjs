// `npm run bench [-- name ...]`: runs the benchmark programs (default: all) one after another, each pinned to
// CPU 1 when taskset exists, so that the servers they start on CPU 0 do not compete with the load generator.
import { spawnSync } from "node:child_process";

const ALL = [
  "platform",
  "rates-list",
  "journal-create",
  "trial-balance",
  "partner-balances",
  "webhooks",
  "invoices",
  "inventory",
  "depreciation",
  "bank",
  "migration",
  "faults",
  "scale-out",
  "declarations",
  "saft",
];
const chosen = process.argv.slice(2).length ? process.argv.slice(2) : ALL;
const hasTaskset = spawnSync("taskset", ["-c", "1", "true"]).status === 0;
let failed = false;
for (const name of chosen) {
  if (!ALL.includes(name)) {
    console.error(`unknown benchmark ${name}; one of: ${ALL.join(", ")}`);
    process.exit(2);
  }
  const script = `bench/${name}.ts`;
  // One process per program (node loads tsx as a hook): no tsx parent relaying signals to a child.
  const node = [process.execPath, "--import", "tsx", script];
  const [cmd, args] = hasTaskset ? ["taskset", ["-c", "1", ...node]] : [node[0], node.slice(1)];
  const result = spawnSync(cmd, args, { stdio: "inherit" });
  failed ||= result.status !== 0;
}
process.exit(failed ? 1 : 0);
