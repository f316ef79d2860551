/**
 * Addresses the worker POSTs to on a customer's word (issue 47): a Web Push subscription's endpoint and a rental's
 * forwarding webhook. Either is typed or chosen by someone outside, so a careless or hostile one must not aim our
 * requests at ourselves or at a network behind us (server-side request forgery). Only an https URL to a public name or
 * a public address passes; the WHATWG URL parser has already turned every spelling of an address (decimal
 * "2130706433", octal, hex, IPv4-mapped IPv6) into its one form, so the checks below read that form only.
 *
 * A name that resolves to a private address is not caught here (the worker cannot resolve names); Cloudflare's fetch
 * refuses private destinations itself, so this is the first of two fences, the one that gives a person a clear message.
 */

/** Why a URL is refused, in words for the person who typed it; null when it may be used. */
export function publicHttpsProblem(raw: string, what: string): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return `${what} is not a URL.`;
  }
  if (url.protocol !== "https:") return `${what} must start with https://.`;
  if (url.username || url.password) return `${what} cannot carry a user name or password.`;
  const host = url.hostname.toLowerCase().replace(/\.$/, "");
  if (isPrivateHost(host)) return `${what} must be a public address, not localhost or a private network.`;
  return null;
}

/** localhost, single-label and reserved names, and every private, loopback, link-local or reserved IP range. */
export function isPrivateHost(host: string): boolean {
  if (host.startsWith("[") && host.endsWith("]")) return isPrivateIpv6(host.slice(1, -1));
  const v4 = ipv4Of(host);
  if (v4) return isPrivateIpv4(v4);
  // A name without a dot reaches a machine on the local network (or nothing); RFC 6761/6762 reserve these endings.
  if (!host.includes(".")) return true;
  return /(^|\.)(localhost|local|internal|intranet|lan|home|corp|private|test|invalid|example|onion|home\.arpa)$/.test(host);
}

function ipv4Of(host: string): number[] | null {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  if (!m) return null;
  const parts = m.slice(1).map(Number);
  return parts.every((p) => p <= 255) ? parts : null;
}

function isPrivateIpv4([a, b]: number[]): boolean {
  return (
    a === 0 || // "this network"
    a === 10 ||
    a === 127 ||
    (a === 100 && b >= 64 && b <= 127) || // carrier-grade NAT (RFC 6598)
    (a === 169 && b === 254) || // link-local, cloud metadata services
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 192 && b === 0) || // IETF protocol assignments and TEST-NET-1 (192.0.0/24, 192.0.2/24)
    (a === 198 && (b === 18 || b === 19)) || // benchmarking (RFC 2544)
    (a === 198 && b === 51) || // TEST-NET-2
    (a === 203 && b === 0) || // TEST-NET-3
    a >= 224 // multicast, reserved, broadcast
  );
}

function isPrivateIpv6(host: string): boolean {
  const h = host.toLowerCase();
  if (h === "::" || h === "::1") return true;
  // IPv4-mapped and IPv4-compatible forms: the URL parser writes them as ::ffff:7f00:1 (hex pairs).
  const mapped = /^::(ffff:)?([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(h);
  if (mapped) {
    const hi = parseInt(mapped[2], 16);
    const lo = parseInt(mapped[3], 16);
    return isPrivateIpv4([hi >> 8, hi & 255, lo >> 8, lo & 255]);
  }
  const first = parseInt(h.split(":")[0] || "0", 16);
  return (
    (first & 0xfe00) === 0xfc00 || // unique local fc00::/7
    (first & 0xffc0) === 0xfe80 || // link-local fe80::/10
    (first & 0xff00) === 0xff00 || // multicast
    h.startsWith("64:ff9b:") || // NAT64 to any IPv4, private ones included
    h.startsWith("2001:db8:") // documentation
  );
}
