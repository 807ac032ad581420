// Starts the benchmark pinned to CPU 1 when taskset exists, so that the servers it starts on CPU 0 are not
// competing with the load generator.
import { spawnSync } from "node:child_process";

const hasTaskset = spawnSync("taskset", ["-c", "1", "true"]).status === 0;
const [cmd, args] = hasTaskset ? ["taskset", ["-c", "1", "tsx", "bench/run.ts"]] : ["tsx", ["bench/run.ts"]];
const result = spawnSync(cmd, [...args, ...process.argv.slice(2)], { stdio: "inherit" });
process.exit(result.status ?? 1);
