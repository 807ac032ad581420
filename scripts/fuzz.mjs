// `npm run fuzz`: the contract fuzzer with more bodies per operation and a fresh seed (printed, so that a failing
// run can be repeated with FUZZ_SEED=<seed>). Runs through jest for its database set-up (test/support).
import { spawnSync } from "node:child_process";

const env = {
  ...process.env,
  NODE_OPTIONS: "--experimental-vm-modules",
  FUZZ_VALID: process.env.FUZZ_VALID ?? "40",
  FUZZ_BROKEN: process.env.FUZZ_BROKEN ?? "120",
  FUZZ_SEED: process.env.FUZZ_SEED ?? String(Date.now() % 2_147_483_647),
};
console.error(`fuzzing with FUZZ_SEED=${env.FUZZ_SEED}, ${env.FUZZ_VALID} valid and ${env.FUZZ_BROKEN} broken bodies per operation`);
const result = spawnSync("jest", ["test/contract/fuzz.test.ts", "--testTimeout=3600000"], { stdio: "inherit", env });
process.exit(result.status ?? 1);
