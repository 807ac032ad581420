// One HTTP attempt of a webhook delivery: POST of the envelope, 10 s for the whole exchange, success = any 2xx.
// Connections go only to addresses the SSRF guard accepts (src/events/url-guard.ts), checked as the socket connects,
// and are kept alive per receiver, so steady traffic to one receiver costs no handshake per event.
import http from "node:http";
import https from "node:https";
import { isIP } from "node:net";
import { guardedLookup, isPrivateAddress } from "./url-guard.js";

export interface AttemptResult {
  /** The receiver's status, when it answered. */
  status: number | null;
  /** Why no status came (timeout, refused, private address), or null. */
  error: string | null;
  ok: boolean;
}

const agents = new Map<string, http.Agent>();
function agentFor(protocol: string, allowPrivate: boolean): http.Agent {
  const name = `${protocol}${allowPrivate}`;
  let agent = agents.get(name);
  if (!agent) {
    const options = { keepAlive: true, maxSockets: 64, maxFreeSockets: 16, timeout: 60_000, lookup: guardedLookup(allowPrivate) };
    agent = protocol === "https:" ? new https.Agent(options) : new http.Agent(options);
    agents.set(name, agent);
  }
  return agent;
}

const RESPONSE_BODY_LIMIT = 64 * 1024;

export function sendAttempt(rawUrl: string, body: string, headers: Record<string, string>, options: { timeoutMs: number; allowPrivate: boolean }): Promise<AttemptResult> {
  return new Promise((resolve) => {
    let url: URL;
    try {
      url = new URL(rawUrl);
    } catch {
      return resolve({ status: null, error: "invalid URL", ok: false });
    }
    if (url.protocol !== "https:" && !(url.protocol === "http:" && options.allowPrivate)) return resolve({ status: null, error: "URL refused: must use https", ok: false });
    // A literal address never goes through the lookup: it is checked here.
    const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
    if (!options.allowPrivate && isIP(host) && isPrivateAddress(host)) return resolve({ status: null, error: `URL refused: ${host} is a private address`, ok: false });
    let settled = false;
    const finish = (result: AttemptResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const transport = url.protocol === "https:" ? https : http;
    const req = transport.request(
      url,
      { method: "POST", agent: agentFor(url.protocol, options.allowPrivate), headers: { ...headers, "content-length": String(Buffer.byteLength(body)) } },
      (res) => {
        let read = 0;
        // The body is read (and dropped) so the connection can be reused; a huge one is cut off.
        res.on("data", (chunk: Buffer) => {
          read += chunk.length;
          if (read > RESPONSE_BODY_LIMIT) res.destroy();
        });
        const status = res.statusCode ?? 0;
        res.on("end", () => finish({ status, error: null, ok: status >= 200 && status < 300 }));
        res.on("close", () => finish({ status, error: null, ok: status >= 200 && status < 300 }));
        res.on("error", () => finish({ status, error: null, ok: status >= 200 && status < 300 }));
      },
    );
    const timer = setTimeout(() => {
      finish({ status: null, error: `timeout after ${options.timeoutMs} ms`, ok: false });
      req.destroy();
    }, options.timeoutMs);
    req.on("error", (error: NodeJS.ErrnoException) => {
      const reason = error.code === "EWEBHOOKPRIVATE" ? `URL refused: ${error.message}` : error.code === "ECONNREFUSED" ? "connection refused" : (error.code ?? error.message);
      finish({ status: null, error: String(reason).slice(0, 500), ok: false });
    });
    req.end(body);
  });
}
