// How a call names the SDK to the server: `User-Agent: accounting-api-sdk/<version> (<runtime>)` where a runtime lets
// a client set it (Node, Deno, Bun, workers), and `X-Client-Name: accounting-api-sdk/<version>` everywhere (a
// browser's fetch does not let a page set User-Agent; it sends its own).
import { API_VERSION } from "./generated/resources.js";

/** The SDK's name and version (the contract's), as `X-Client-Name` carries it. */
export const CLIENT_NAME = `accounting-api-sdk/${API_VERSION}`;

interface RuntimeGlobals {
  document?: unknown;
  Bun?: unknown;
  process?: { versions?: { node?: string; bun?: string } };
  navigator?: { userAgent?: string };
}

/** The runtime, as the User-Agent's comment: `node 24.21.0`, `bun 1.2.0`, or the runtime's own `navigator.userAgent`. */
function runtime(g: RuntimeGlobals): string {
  const versions = g.process?.versions;
  if (g.Bun !== undefined && versions?.bun) return `bun ${versions.bun}`;
  if (versions?.node) return `node ${versions.node}`;
  return g.navigator?.userAgent || "unknown runtime";
}

/** The headers naming the SDK; no User-Agent in a browser (a page cannot set it). */
export function clientHeaders(g: RuntimeGlobals = globalThis as RuntimeGlobals): Record<string, string> {
  const headers: Record<string, string> = { "x-client-name": CLIENT_NAME };
  if (g.document === undefined) headers["user-agent"] = `${CLIENT_NAME} (${runtime(g)})`;
  return headers;
}
