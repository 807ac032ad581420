// Helpers for tests that run the product as separate processes (a second API server, the admin CLI).
import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { SERVER_NODE_FLAGS } from "../../src/node-flags.js";

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), "../..");
// The product's processes run as `npm start` runs them: node with tsx as a loader hook, one process. (The tsx CLI would
// run the program as its child and SIGKILL it when it does not acknowledge a SIGTERM within 30 ms.)
const NODE_TSX = [process.execPath, ...SERVER_NODE_FLAGS, "--import", "tsx"] as const;

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** The environment a child process gets: this one's, without DATABASE_URL unless given. */
function childEnv(env: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const base: NodeJS.ProcessEnv = { ...process.env, NODE_OPTIONS: "" };
  delete base.DATABASE_URL;
  for (const [k, v] of Object.entries(env)) {
    if (v === undefined) delete base[k];
    else base[k] = v;
  }
  return base;
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runCli(args: string[], env: Record<string, string | undefined>): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(NODE_TSX[0], [...NODE_TSX.slice(1), "src/cli/admin.ts", ...args], { cwd: ROOT, env: childEnv(env) });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  output: () => string;
  /** Sends SIGTERM and resolves with the exit code. */
  stop(): Promise<number | null>;
  /** Kills the whole process group at once, as `kill -9` would; resolves on exit. */
  kill9(): Promise<void>;
}

/** Starts `npm start`'s entry point (src/main.ts) as its own process and waits until /health answers. */
export async function startServerProcess(env: Record<string, string | undefined>, args: string[] = ["--no-worker"]): Promise<ServerProcess> {
  const port = await freePort();
  // Its own process group, so that kill9() reaches every process it starts.
  const child = spawn(NODE_TSX[0], [...NODE_TSX.slice(1), "src/main.ts", ...args], {
    cwd: ROOT,
    detached: true,
    env: childEnv({ LOG_LEVEL: "warn", ...env, PORT: String(port), HOST: "127.0.0.1" }),
  });
  let output = "";
  child.stdout!.on("data", (d) => (output += d));
  child.stderr!.on("data", (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  // Ended by a signal, a process has a signalCode and no exitCode.
  const running = () => child.exitCode === null && child.signalCode === null;
  const url = `http://127.0.0.1:${port}`;
  // A fresh embedded database (initdb, every migration) on a loaded 2-core machine can take a minute; the calling
  // test's own timeout still bounds the wait.
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (!running()) throw new Error(`server process exited early (${child.exitCode ?? child.signalCode}):\n${output}`);
    try {
      const res = await fetch(`${url}/health`);
      if (res.status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      process.kill(-child.pid!, "SIGKILL");
      throw new Error(`server process did not become healthy:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  return {
    url,
    child,
    output: () => output,
    stop: async () => {
      if (running()) child.kill("SIGTERM");
      return exited;
    },
    kill9: async () => {
      try {
        if (running()) process.kill(-child.pid!, "SIGKILL");
      } catch (error) {
        // Reaped already, its exit event not yet delivered: nothing is left to kill.
        if ((error as NodeJS.ErrnoException).code !== "ESRCH") throw error;
      }
      await exited;
    },
  };
}
