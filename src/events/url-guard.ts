// SSRF protection of webhook URLs (issue 9). A subscription URL is https (http only with
// WEBHOOK_ALLOW_PRIVATE_URLS=true) and must not lead to the service's own network: loopback, private, shared
// (CGNAT), link-local (which holds cloud metadata endpoints such as 169.254.169.254), unique-local, multicast or
// reserved addresses are refused at create/update, and again when each delivery connects (`guardedLookup`), so a
// name that resolves elsewhere later (DNS rebinding) is still refused. The connection goes to the address that was
// checked, never to a second resolution.
import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { BlockList, isIP, type LookupFunction } from "node:net";

const blocked = new BlockList();
for (const [net, bits] of [
  ["0.0.0.0", 8], ["10.0.0.0", 8], ["100.64.0.0", 10], ["127.0.0.0", 8], ["169.254.0.0", 16], ["172.16.0.0", 12],
  ["192.0.0.0", 24], ["192.0.2.0", 24], ["192.88.99.0", 24], ["192.168.0.0", 16], ["198.18.0.0", 15], ["198.51.100.0", 24],
  ["203.0.113.0", 24], ["224.0.0.0", 4], ["240.0.0.0", 4],
] as const) blocked.addSubnet(net, bits, "ipv4");
for (const [net, bits] of [
  ["::", 128], ["::1", 128], ["64:ff9b::", 96], ["64:ff9b:1::", 48], ["100::", 64], ["2001::", 23], ["2001:db8::", 32],
  ["2002::", 16], ["fc00::", 7], ["fe80::", 10], ["fec0::", 10], ["ff00::", 8],
] as const) blocked.addSubnet(net, bits, "ipv6");

/** True for an address a webhook may not reach unless private URLs are allowed. */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return blocked.check(address, "ipv4");
  if (family !== 6) return true;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return blocked.check(mapped[1], "ipv4");
  return blocked.check(address, "ipv6");
}

export class UrlRefused extends Error {}

/** The URL's shape: scheme, no credentials, a host. Throws UrlRefused with the reason. */
export function checkUrlShape(raw: string, allowPrivate: boolean): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UrlRefused("is not a valid URL");
  }
  if (url.protocol !== "https:" && !(url.protocol === "http:" && allowPrivate)) throw new UrlRefused("must use https");
  if (url.username || url.password) throw new UrlRefused("must not carry a user name or password");
  if (!url.hostname) throw new UrlRefused("must name a host");
  return url;
}

const hostOf = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, "$1");

/** Checks a subscription URL at create/update: its shape, and every address its host resolves to. */
export async function checkWebhookUrl(raw: string, allowPrivate: boolean): Promise<void> {
  const url = checkUrlShape(raw, allowPrivate);
  if (allowPrivate) return;
  const host = hostOf(url);
  if (/^(localhost|.*\.localhost|.*\.local|.*\.internal)$/i.test(host)) throw new UrlRefused("must not name a local or internal host");
  let addresses: LookupAddress[];
  try {
    addresses = isIP(host) ? [{ address: host, family: isIP(host) }] : await new Promise((resolve, reject) => dnsLookup(host, { all: true }, (e, a) => (e ? reject(e) : resolve(a))));
  } catch {
    throw new UrlRefused(`host ${host} does not resolve`);
  }
  const refused = addresses.find((a) => isPrivateAddress(a.address));
  if (refused) throw new UrlRefused(`resolves to ${refused.address}, a private, loopback, link-local or reserved address`);
}

/**
 * A `lookup` for http(s).request that refuses private addresses (unless allowed): the socket connects to the
 * address checked here. Errors carry code `EWEBHOOKPRIVATE`.
 */
export function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, "", 0);
      const list = addresses as LookupAddress[];
      const allowed = allowPrivate ? list : list.filter((a) => !isPrivateAddress(a.address));
      if (allowed.length === 0) {
        const refused = Object.assign(new Error(`${hostname} resolves to a private address (${list.map((a) => a.address).join(", ")})`), { code: "EWEBHOOKPRIVATE" });
        return callback(refused, "", 0);
      }
      if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, allowed);
      callback(null, allowed[0].address, allowed[0].family);
    });
  };
}
