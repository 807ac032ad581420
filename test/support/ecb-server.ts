// A stand-in for the ECB euro reference-rate feed (https://www.ecb.europa.eu/stats/eurofxref/): a local HTTP
// server on 127.0.0.1 that serves, under folder prefixes chosen by the test, the three files the product reads
// (eurofxref-daily.xml, eurofxref-hist-90d.xml, eurofxref-hist.xml) with content written in the test: ECB XML
// built with `ecbXml`, any other text (malformed answers), or a bare HTTP status. Every requested path is
// recorded. Closing it makes the source unreachable. It never reaches the internet.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** One published day: currency -> rate exactly as written in the file (units of currency per 1 EUR). */
export interface EcbRateDay {
  date: string;
  rates: Record<string, string>;
}

export type EcbFileKind = "daily" | "hist-90d" | "hist";

/** What one file answers: a body (200 unless `status` says otherwise), or only a status. */
export interface EcbAnswer {
  status?: number;
  body?: string;
  contentType?: string;
  /** Answers only after this long (a slow source, or a job to stop in the middle). */
  delayMs?: number;
}

export interface EcbServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** The folder URL of a prefix, with its trailing slash: what EXCHANGE_RATES_URL is set to. */
  folder(prefix: string): string;
  /** The URL of one file under a prefix (EXCHANGE_RATES_URL may also name any file of the folder). */
  file(prefix: string, kind: EcbFileKind): string;
  /** Serves these files under `/<prefix>/` (replacing what was served there) and returns the folder URL. */
  serve(prefix: string, files: Partial<Record<EcbFileKind, string | EcbAnswer>>): string;
  /** Every path requested so far, in order (e.g. `/good/eurofxref-daily.xml`). */
  readonly requests: string[];
  /** Forgets the recorded requests. */
  clearRequests(): void;
  /** Stops listening and drops open connections: the source becomes unreachable. */
  close(): Promise<void>;
}

/** The ECB's XML for these days (written newest first, as the ECB does). */
export function ecbXml(days: EcbRateDay[]): string {
  const sorted = [...days].sort((a, b) => (a.date < b.date ? 1 : -1));
  const cubes = sorted
    .map(
      (day) =>
        `\t\t<Cube time='${day.date}'>\n` +
        Object.entries(day.rates)
          .map(([currency, rate]) => `\t\t\t<Cube currency='${currency}' rate='${rate}'/>\n`)
          .join("") +
        `\t\t</Cube>\n`,
    )
    .join("");
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n` +
    `<gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">\n` +
    `\t<gesmes:subject>Reference rates</gesmes:subject>\n` +
    `\t<gesmes:Sender>\n\t\t<gesmes:name>European Central Bank</gesmes:name>\n\t</gesmes:Sender>\n` +
    `\t<Cube>\n${cubes}\t</Cube>\n` +
    `</gesmes:Envelope>\n`
  );
}

const FILE_NAME: Record<EcbFileKind, string> = {
  daily: "eurofxref-daily.xml",
  "hist-90d": "eurofxref-hist-90d.xml",
  hist: "eurofxref-hist.xml",
};

function normalizePrefix(prefix: string): string {
  const trimmed = prefix.replace(/^\/+|\/+$/g, "");
  if (!trimmed || trimmed.includes("..")) throw new Error(`bad ECB server prefix ${JSON.stringify(prefix)}`);
  return trimmed;
}

export async function startEcbServer(): Promise<EcbServer> {
  const answers = new Map<string, EcbAnswer>();
  const requests: string[] = [];

  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? "/", "http://127.0.0.1").pathname;
    requests.push(path);
    const answer = req.method === "GET" || req.method === "HEAD" ? answers.get(path) : undefined;
    if (!answer) {
      res.writeHead(404, { "content-type": "text/plain" });
      res.end("Not Found");
      return;
    }
    if (answer.delayMs) await new Promise((r) => setTimeout(r, answer.delayMs));
    const status = answer.status ?? 200;
    res.writeHead(status, { "content-type": answer.contentType ?? (answer.body === undefined ? "text/plain" : "text/xml; charset=UTF-8") });
    res.end(req.method === "HEAD" ? undefined : (answer.body ?? (status >= 400 ? "Internal Server Error" : "")));
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  let closed: Promise<void> | undefined;

  return {
    url,
    folder: (prefix) => `${url}/${normalizePrefix(prefix)}/`,
    file: (prefix, kind) => `${url}/${normalizePrefix(prefix)}/${FILE_NAME[kind]}`,
    serve(prefix, files) {
      const p = normalizePrefix(prefix);
      for (const name of Object.values(FILE_NAME)) answers.delete(`/${p}/${name}`);
      for (const [kind, answer] of Object.entries(files) as [EcbFileKind, string | EcbAnswer][]) {
        answers.set(`/${p}/${FILE_NAME[kind]}`, typeof answer === "string" ? { body: answer } : answer);
      }
      return `${url}/${p}/`;
    },
    requests,
    clearRequests: () => {
      requests.length = 0;
    },
    close() {
      closed ??= new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      });
      return closed;
    },
  };
}
