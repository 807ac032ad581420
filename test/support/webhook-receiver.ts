// A webhook receiver as an integrator writes one: a local HTTP server on 127.0.0.1 that records every delivery and
// verifies its signatures itself (node:crypto, not the product's code) — the v2 header `t=<unix>,v1=<hex>` as
// HMAC-SHA256 over `<t>.<body>` within a tolerance window on `t`, and the original `sha256=<hex>` over the body.
// What each path answers (a status, after a delay) is set by the test.
import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage } from "node:http";
import type { LookupAddress } from "node:dns";
import { isIP, type AddressInfo } from "node:net";
import type { HostResolver } from "../../src/webhooks/url-guard.js";

export interface Received {
  path: string;
  headers: IncomingMessage["headers"];
  body: string;
  json: any;
  at: number;
}

export interface Answer {
  status: number;
  delayMs?: number;
}

export interface Receiver {
  url(path: string): string;
  /** What `path` answers from now on: a fixed answer, or one per request (given the request's 0-based index on the path). */
  answer(path: string, answer: Answer | ((index: number, r: Received) => Answer)): void;
  received(path: string): Received[];
  /** Waits until `path` has received `count` requests (or fails after `timeoutMs`). */
  waitFor(path: string, count: number, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

const hmacHex = (secret: string, text: string) => createHmac("sha256", secret).update(text, "utf8").digest("hex");
const same = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** The v2 check an integrator makes: some v1 value matches, and t is within the tolerance window. */
export function verifyV2(header: string | undefined, body: string, secret: string, toleranceSeconds = 300): boolean {
  if (!header) return false;
  const pairs = header.split(",").map((part) => part.split("=", 2) as [string, string]);
  const t = Number(pairs.find(([k]) => k === "t")?.[1]);
  if (!Number.isInteger(t) || Math.abs(Date.now() / 1000 - t) > toleranceSeconds) return false;
  const expected = hmacHex(secret, `${t}.${body}`);
  return pairs.some(([k, v]) => k === "v1" && same(v, expected));
}

/** The original header's check: some `sha256=` value is the HMAC of the body. */
export function verifyV1(header: string | undefined, body: string, secret: string): boolean {
  if (!header) return false;
  const expected = `sha256=${hmacHex(secret, body)}`;
  return header.split(",").some((v) => same(v.trim(), expected));
}

export async function startReceiver(): Promise<Receiver> {
  const answers = new Map<string, Answer | ((index: number, r: Received) => Answer)>();
  const log = new Map<string, Received[]>();
  const waiters = new Set<() => void>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      const path = new URL(req.url ?? "/", "http://x").pathname;
      const body = Buffer.concat(chunks).toString("utf8");
      let json: unknown;
      try {
        json = JSON.parse(body);
      } catch {
        json = undefined;
      }
      const r: Received = { path, headers: req.headers, body, json, at: Date.now() };
      const list = log.get(path) ?? [];
      const index = list.length;
      list.push(r);
      log.set(path, list);
      for (const w of waiters) w();
      const configured = answers.get(path) ?? { status: 200 };
      const answer = typeof configured === "function" ? configured(index, r) : configured;
      if (answer.delayMs) await new Promise((resolve) => setTimeout(resolve, answer.delayMs));
      if (res.destroyed) return;
      res.writeHead(answer.status, { "content-type": "text/plain" });
      res.end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: (path) => base + path,
    answer: (path, answer) => void answers.set(path, answer),
    received: (path) => [...(log.get(path) ?? [])],
    waitFor: (path, count, timeoutMs = 30_000) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const list = log.get(path) ?? [];
          if (list.length >= count) {
            waiters.delete(check);
            clearTimeout(timer);
            resolve([...list]);
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`${path} received ${(log.get(path) ?? []).length} of ${count} deliveries in ${timeoutMs} ms`));
        }, timeoutMs);
        waiters.add(check);
        check();
      }),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * A resolver for the webhook guard (config `webhookResolve`) that answers from `hosts` and fails every other name as
 * the system resolver does (ENOTFOUND): a test controls what its hosts resolve to, and no name reaches DNS.
 */
export function fakeResolver(hosts: Record<string, string[]>): HostResolver {
  return async (hostname) => {
    const addresses = Object.hasOwn(hosts, hostname) ? hosts[hostname] : undefined;
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
    return addresses.map((address): LookupAddress => ({ address, family: isIP(address) }));
  };
}
