// SSRF protection of webhook URLs (issues 9 and 22). A subscription URL is https (http only with
// WEBHOOK_ALLOW_PRIVATE_URLS=true), on an allowed port (443 and 8443, or WEBHOOK_ALLOWED_PORTS), without user name or
// password, and must not lead to the service's own network: loopback, private, shared (CGNAT), link-local (which
// holds cloud metadata endpoints such as 169.254.169.254), unique-local, multicast or reserved addresses — also
// written as IPv6 forms that embed an IPv4 address (IPv4-mapped, -compatible, -translated, NAT64, 6to4, Teredo), which
// some hosts route to that IPv4 address. The check runs at create/update (`checkWebhookUrl`, every address the host
// resolves to) and again when each delivery connects (`checkTarget` and `guardedLookup`), so a name that resolves
// elsewhere later (DNS rebinding) is still refused. The connection goes to the address that was checked, never to a
// second resolution. WEBHOOK_ALLOW_PRIVATE_URLS=true lifts all of it (local receivers listen on any port).
import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { BlockList, isIP, type LookupFunction } from "node:net";
import type { Config, HostResolver } from "../config.js";

/** Resolves a host name to its addresses (default: the system resolver, as `dns.lookup(host, {all: true})`). */
export type { HostResolver };

/** What the guard allows: taken from the configuration (webhookNetwork). */
export interface WebhookNetwork {
  /** WEBHOOK_ALLOW_PRIVATE_URLS: http, any port and any address (tests, local development). */
  allowPrivate: boolean;
  /** WEBHOOK_ALLOWED_PORTS: the ports a URL may name (its scheme's default port when it names none). */
  allowedPorts: readonly number[];
  /** Resolution of host names; the system resolver when absent. */
  resolve?: HostResolver;
}

export const webhookNetwork = (config: Config): WebhookNetwork => ({
  allowPrivate: config.webhookAllowPrivateUrls,
  allowedPorts: config.webhookAllowedPorts,
  resolve: config.webhookResolve,
});

const systemResolve = (hostname: string, options: object = {}): Promise<LookupAddress[]> =>
  new Promise((resolve, reject) => dnsLookup(hostname, { ...options, all: true }, (error, addresses) => (error ? reject(error) : resolve(addresses))));

// IANA's special-purpose registries (iana-ipv4-special-registry, iana-ipv6-special-registry) and the private ranges.
const blocked4 = new BlockList();
for (const [net, bits] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.88.99.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const)
  blocked4.addSubnet(net, bits, "ipv4");
// Inside the global unicast space 2000::/3: IETF protocol assignments (2001::/23, with Teredo 2001::/32, whose
// client address is an obfuscated IPv4), documentation (2001:db8::/32, 3fff::/20) and 6to4 (2002::/16, an IPv4
// address in bits 16-47, reached through whichever relay).
const blocked6 = new BlockList();
for (const [net, bits] of [
  ["2001::", 23],
  ["2001:db8::", 32],
  ["2002::", 16],
  ["3fff::", 20],
] as const)
  blocked6.addSubnet(net, bits, "ipv6");

/** The eight 16-bit groups of an IPv6 address (isIP(text) === 6), a zone (`%eth0`) ignored. */
function ipv6Groups(text: string): number[] {
  let address = text.replace(/%.*$/, "");
  const dotted = /^(.*:)(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(address);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(2).map(Number);
    address = `${dotted[1]}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = address.includes("::") ? address.split("::") : [address, undefined];
  const parse = (part: string | undefined) => (part ? part.split(":").map((g) => parseInt(g, 16)) : []);
  const left = parse(head);
  const right = parse(tail);
  return tail === undefined ? left : [...left, ...new Array(8 - left.length - right.length).fill(0), ...right];
}

const embeddedIpv4 = (g: number[]) => `${g[6] >> 8}.${g[6] & 255}.${g[7] >> 8}.${g[7] & 255}`;

/** True for an address a webhook may not reach unless private URLs are allowed. */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address.replace(/%.*$/, ""));
  if (family === 4) return blocked4.check(address, "ipv4");
  if (family !== 6) return true;
  const g = ipv6Groups(address);
  // ::/8 (IETF reserved) holds ::, ::1, IPv4-compatible (::a.b.c.d), IPv4-mapped (::ffff:a.b.c.d), IPv4-translated
  // (::ffff:0:a.b.c.d) and NAT64 (64:ff9b::/96, 64:ff9b:1::/48) addresses. Only two of its forms are public, and
  // only when the IPv4 address they carry is: an IPv4-mapped address (it is that IPv4 address) and the NAT64
  // well-known prefix 64:ff9b::/96 (globally reachable: a DNS64 network gives IPv4-only hosts such addresses).
  if (g[0] >> 8 === 0) {
    const mapped = g[0] === 0 && g[1] === 0 && g[2] === 0 && g[3] === 0 && g[4] === 0 && g[5] === 0xffff;
    const nat64 = g[0] === 0x64 && g[1] === 0xff9b && g[2] === 0 && g[3] === 0 && g[4] === 0 && g[5] === 0;
    return mapped || nat64 ? blocked4.check(embeddedIpv4(g), "ipv4") : true;
  }
  // Outside 2000::/3 (global unicast) nothing is public: unique-local fc00::/7, link-local fe80::/10, site-local
  // fec0::/10, multicast ff00::/8, discard-only 100::/64, SRv6 5f00::/16, and what is not allocated.
  if (g[0] >> 13 !== 1) return true;
  return blocked6.check(address.replace(/%.*$/, ""), "ipv6");
}

export class UrlRefused extends Error {}

/** A URL's host without the brackets of an IPv6 literal and without trailing dots (`localhost.` is `localhost`). */
const hostOf = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, "$1").replace(/\.+$/, "");

const LOCAL_NAME = /^(localhost|.*\.localhost|.*\.local|.*\.internal)$/i;

/**
 * What can be checked without resolving the host, at create/update and before each delivery: the scheme, no
 * credentials, a host, the port, no local or internal name, and an IP literal's address. (WHATWG URL parsing has
 * already turned `2130706433`, `0x7f.1`, `0177.0.0.1` and `127.1` into `127.0.0.1`, and `[::127.0.0.1]` into
 * `[::7f00:1]`.) Returns the URL and its host; throws UrlRefused with the reason.
 */
export function checkTarget(raw: string, network: WebhookNetwork): { url: URL; host: string } {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UrlRefused("is not a valid URL");
  }
  if (url.protocol !== "https:" && !(url.protocol === "http:" && network.allowPrivate)) throw new UrlRefused("must use https");
  if (url.username || url.password) throw new UrlRefused("must not carry a user name or password");
  const host = hostOf(url);
  if (!host) throw new UrlRefused("must name a host");
  if (network.allowPrivate) return { url, host };
  // An explicit default port (`:443`) is dropped by the parser; `url.port` is empty then.
  const port = url.port ? Number(url.port) : 443;
  if (!network.allowedPorts.includes(port)) throw new UrlRefused(`must use port ${network.allowedPorts.join(" or ")}, not ${port}`);
  if (LOCAL_NAME.test(host)) throw new UrlRefused("must not name a local or internal host");
  if (isIP(host) && isPrivateAddress(host)) throw new UrlRefused(`names ${host}, a private, loopback, link-local or reserved address`);
  return { url, host };
}

/** Checks a subscription URL at create/update: everything checkTarget checks, and every address its host resolves to. */
export async function checkWebhookUrl(raw: string, network: WebhookNetwork): Promise<void> {
  const { host } = checkTarget(raw, network);
  if (network.allowPrivate || isIP(host)) return;
  let addresses: LookupAddress[];
  try {
    addresses = await (network.resolve ?? systemResolve)(host);
  } catch {
    throw new UrlRefused(`host ${host} does not resolve`);
  }
  if (addresses.length === 0) throw new UrlRefused(`host ${host} does not resolve`);
  const refused = addresses.find((a) => isPrivateAddress(a.address));
  if (refused) throw new UrlRefused(`resolves to ${refused.address}, a private, loopback, link-local or reserved address`);
}

/**
 * A `lookup` for http(s).request that refuses private addresses (unless allowed): the socket connects to an
 * address checked here. Errors carry code `EWEBHOOKPRIVATE`.
 */
export function guardedLookup(network: WebhookNetwork): LookupFunction {
  return (hostname, options, callback) => {
    // The system resolver is asked as the socket would ask it (family, hints); an injected one answers for any family.
    const family = (options as { family?: number | string }).family;
    const resolved = network.resolve
      ? network.resolve(hostname).then((list) => (family === 4 || family === 6 ? list.filter((a) => a.family === family) : list))
      : systemResolve(hostname, options);
    resolved.then(
      (list) => {
        const allowed = network.allowPrivate ? list : list.filter((a) => !isPrivateAddress(a.address));
        if (allowed.length === 0) {
          const refused = Object.assign(new Error(`${hostname} resolves to a private address (${list.map((a) => a.address).join(", ")})`), {
            code: "EWEBHOOKPRIVATE",
          });
          return callback(refused, "", 0);
        }
        if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, allowed);
        callback(null, allowed[0].address, allowed[0].family);
      },
      (error: NodeJS.ErrnoException) => callback(error, "", 0),
    );
  };
}
