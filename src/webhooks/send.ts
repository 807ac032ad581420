// One HTTP attempt of a webhook delivery: POST of the envelope, 10 s for the whole exchange, success = any 2xx.
// Connections go only to addresses the SSRF guard accepts (src/webhooks/url-guard.ts), checked as the socket connects,
// and are kept alive per receiver, so steady traffic to one receiver costs no handshake per event.
import http from "node:http";
import https from "node:https";
import { checkTarget, guardedLookup, UrlRefused, type HostResolver, type WebhookNetwork } from "./url-guard.js";

export interface AttemptResult {
  /** The receiver's status, when it answered. */
  status: number | null;
  /** Why no status came (timeout, refused, private address), or null. */
  error: string | null;
  ok: boolean;
}

// One agent per scheme, guard setting and resolver (the resolver is the system's outside tests).
const agents = new Map<HostResolver | undefined, Map<string, http.Agent>>();
function agentFor(protocol: string, network: WebhookNetwork): http.Agent {
  const byName = agents.get(network.resolve) ?? new Map<string, http.Agent>();
  agents.set(network.resolve, byName);
  const name = `${protocol}${network.allowPrivate}:${network.allowedPorts.join(",")}`;
  let agent = byName.get(name);
  if (!agent) {
    const options = { keepAlive: true, maxSockets: 64, maxFreeSockets: 16, timeout: 60_000, lookup: guardedLookup(network) };
    agent = protocol === "https:" ? new https.Agent(options) : new http.Agent(options);
    byName.set(name, agent);
  }
  return agent;
}

const RESPONSE_BODY_LIMIT = 64 * 1024;

export function sendAttempt(
  rawUrl: string,
  body: string,
  headers: Record<string, string>,
  options: { timeoutMs: number; network: WebhookNetwork },
): Promise<AttemptResult> {
  return new Promise((resolve) => {
    let url: URL;
    // What the URL alone shows (scheme, credentials, port, local names, a literal address) is checked here; the
    // addresses a name resolves to, by the agent's lookup as the socket connects.
    try {
      url = checkTarget(rawUrl, options.network).url;
    } catch (error) {
      if (!(error instanceof UrlRefused)) throw error;
      return resolve({ status: null, error: `URL refused: ${error.message}`, ok: false });
    }
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
      { method: "POST", agent: agentFor(url.protocol, options.network), headers: { ...headers, "content-length": String(Buffer.byteLength(body)) } },
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
      const reason =
        error.code === "EWEBHOOKPRIVATE"
          ? `URL refused: ${error.message}`
          : error.code === "ECONNREFUSED"
            ? "connection refused"
            : (error.code ?? error.message);
      finish({ status: null, error: String(reason).slice(0, 500), ok: false });
    });
    req.end(body);
  });
}
