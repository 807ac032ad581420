// The real pieces an operator puts around the service, started by the benchmarks themselves: Debian's PgBouncer in
// transaction pooling in front of PostgreSQL, and Debian's nginx balancing several API processes. Each runs in the
// foreground as a child process with its configuration in a temporary directory; nothing is installed here
// (.ci/run installs the packages with apt-get when they are missing).
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "./lib.js";

export const PGBOUNCER = "/usr/sbin/pgbouncer";
export const NGINX = "/usr/sbin/nginx";

/** True when the program is installed and runs. */
export function installed(path: string): boolean {
  return spawnSync(path, ["--version"]).status === 0 || spawnSync(path, ["-v"]).status === 0;
}

export interface RunningPiece {
  url: string;
  child: ChildProcess;
  log(): string;
  stop(): Promise<void>;
}

async function untilListening(port: number, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`exited early (${child.exitCode}):\n${log()}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, "127.0.0.1", () => {
        socket.destroy();
        resolve(true);
      });
      socket.on("error", () => resolve(false));
    });
    if (open) return;
    if (Date.now() > deadline) throw new Error(`not listening on ${port}:\n${log()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function scratchDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  // PgBouncer and nginx's workers run as unprivileged users when started as root.
  chmodSync(dir, 0o777);
  return dir;
}

const stopper = (child: ChildProcess) => async () => {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once("exit", r));
  child.kill("SIGTERM");
  await exited;
};

/**
 * PgBouncer in transaction pooling (pool_mode = transaction) in front of the database of `directUrl`; resolves to
 * the connection string through it, for DATABASE_URL. Started as root, it switches to the `postgres` user.
 */
export async function startPgBouncer(directUrl: string, options: { poolSize?: number; anyDatabase?: boolean } = {}): Promise<RunningPiece> {
  const direct = new URL(directUrl);
  const dir = scratchDir("acct-pgbouncer-");
  const port = await freePort();
  const database = direct.pathname.slice(1);
  const user = decodeURIComponent(direct.username || "postgres");
  const password = decodeURIComponent(direct.password || "");
  writeFileSync(
    join(dir, "pgbouncer.ini"),
    [
      "[databases]",
      // `*`: every database of the server, by the name the client asks for (the tests' databases, one per file).
      options.anyDatabase
        ? `* = host=${direct.hostname} port=${direct.port || 5432} user=${user}${password ? ` password=${password}` : ""}`
        : `${database} = host=${direct.hostname} port=${direct.port || 5432} dbname=${database} user=${user}${password ? ` password=${password}` : ""}`,
      "[pgbouncer]",
      "listen_addr = 127.0.0.1",
      `listen_port = ${port}`,
      "unix_socket_dir =",
      "auth_type = any",
      "pool_mode = transaction",
      `default_pool_size = ${options.poolSize ?? 20}`,
      "max_client_conn = 1000",
      // Retry a failed server login after 1 s (default 15 s), and give up on a queued client after 30 s (default 120).
      "server_login_retry = 1",
      "query_wait_timeout = 30",
      // node-postgres sends these at startup; PgBouncer 1.18 refuses unknown startup parameters unless ignored.
      "ignore_startup_parameters = extra_float_digits,options",
      `logfile = ${join(dir, "pgbouncer.log")}`,
      `pidfile = ${join(dir, "pgbouncer.pid")}`,
      "",
    ].join("\n"),
  );
  chmodSync(join(dir, "pgbouncer.ini"), 0o644);
  const asRoot = process.getuid?.() === 0;
  const child = spawn(PGBOUNCER, [...(asRoot ? ["-u", "postgres"] : []), join(dir, "pgbouncer.ini")], { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout!.on("data", (d) => (output += d));
  child.stderr!.on("data", (d) => (output += d));
  const log = () => {
    let file = "";
    try {
      file = readFileSync(join(dir, "pgbouncer.log"), "utf8");
    } catch {
      // not written yet
    }
    return output + file;
  };
  await untilListening(port, child, log);
  const url = new URL(directUrl);
  url.hostname = "127.0.0.1";
  url.port = String(port);
  return { url: url.toString(), child, log, stop: stopper(child) };
}

/**
 * nginx balancing `upstreams` (round robin; a process that refuses connections is skipped, and a request is passed
 * to the next one only when it could not be sent — never a POST that a process may have begun to execute).
 */
/** The proxy settings of a location, with its read (and send) timeout. */
const proxied = (timeout: string) =>
  [
    "proxy_pass http://api;",
    "proxy_http_version 1.1;",
    'proxy_set_header Connection "";',
    "proxy_set_header Host $host;",
    "proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;",
    "proxy_next_upstream error timeout;",
    "proxy_connect_timeout 2s;",
    `proxy_read_timeout ${timeout};`,
    `proxy_send_timeout ${timeout};`,
  ]
    .map((line) => `      ${line}`)
    .join("\n");

export async function startNginx(upstreams: string[]): Promise<RunningPiece> {
  const dir = scratchDir("acct-nginx-");
  for (const sub of ["body", "proxy", "fastcgi", "uwsgi", "scgi"]) mkdirSync(join(dir, sub), { mode: 0o777 });
  const port = await freePort();
  const servers = upstreams.map((u) => `    server ${new URL(u).host} max_fails=1 fail_timeout=2s;`).join("\n");
  writeFileSync(
    join(dir, "nginx.conf"),
    `worker_processes 1;
daemon off;
pid ${join(dir, "nginx.pid")};
error_log ${join(dir, "error.log")} warn;
events { worker_connections 2048; }
http {
  access_log off;
  client_body_temp_path ${join(dir, "body")};
  proxy_temp_path ${join(dir, "proxy")};
  fastcgi_temp_path ${join(dir, "fastcgi")};
  uwsgi_temp_path ${join(dir, "uwsgi")};
  scgi_temp_path ${join(dir, "scgi")};
  upstream api {
${servers}
    keepalive 64;
  }
  server {
    listen 127.0.0.1:${port};
    client_max_body_size 40m;
    location / {
${proxied("60s")}
    }
    # A historical-books package (32 MB) is read and imported in one request, which can take minutes on a large
    # package: the answer must not be cut off at 60 s while the import commits.
    location /v1/migration/books/ {
${proxied("600s")}
    }
  }
}
`,
  );
  const child = spawn(NGINX, ["-c", join(dir, "nginx.conf"), "-p", dir, "-e", join(dir, "error.log")], { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout!.on("data", (d) => (output += d));
  child.stderr!.on("data", (d) => (output += d));
  const log = () => {
    let file = "";
    try {
      file = readFileSync(join(dir, "error.log"), "utf8");
    } catch {
      // not written yet
    }
    return output + file;
  };
  await untilListening(port, child, log);
  return { url: `http://127.0.0.1:${port}`, child, log, stop: stopper(child) };
}
