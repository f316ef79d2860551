/**
 * PUBLIC_URL as the origin customers reach us at (scheme, host and port, no path or trailing slash), or null when it
 * is missing or not an http(s) URL. Links and callback URLs are built from this configured value only (Config.publicUrl),
 * never from the request: the Host header is whatever the client wrote.
 */
export function parsePublicUrl(configured: string | undefined): string | null {
  if (!configured) return null;
  let url: URL;
  try {
    url = new URL(configured.trim());
  } catch {
    return null;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return null;
  return url.origin;
}

/** How the web client reads its route: from the hash (`/#/dashboard/1`, ours) or from the path (`/dashboard/1`). */
export type WebRouting = "hash" | "path";

/**
 * The web client customers use, as one configured base URL (WEB_CLIENT_URL, decision 032): `<origin>/#/` for a client
 * with hash routing (ours, the default on PUBLIC_URL) or `<origin>/` (or `<origin>/<prefix>/`) for one with path routing
 * (the spec's original client uses BrowserRouter). Every link we hand out or e-mail is `base + route`.
 */
export interface WebClient {
  /** Ends in "/#/" (hash routing) or "/" (path routing). */
  base: string;
  origin: string;
  routing: WebRouting;
}

/** WEB_CLIENT_URL read into a WebClient, or a sentence saying why it cannot be (null when absent: the caller defaults). */
export function parseWebClientUrl(configured: string | undefined): WebClient | string | null {
  if (!configured || !configured.trim()) return null;
  let url: URL;
  try {
    url = new URL(configured.trim());
  } catch {
    return "WEB_CLIENT_URL is not a URL";
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return "WEB_CLIENT_URL must be an http(s) URL";
  if (url.search || url.username || url.password) return "WEB_CLIENT_URL must carry no query or credentials";
  if (url.hash && url.hash !== "#/") return 'WEB_CLIENT_URL\'s hash must be "#/" (hash routing) or absent (path routing)';
  const path = url.pathname.endsWith("/") ? url.pathname : `${url.pathname}/`;
  return url.hash
    ? { base: `${url.origin}${path}#/`, origin: url.origin, routing: "hash" }
    : { base: `${url.origin}${path}`, origin: url.origin, routing: "path" };
}

/** Our own client: hash routing on PUBLIC_URL. */
export const ownWebClient = (publicUrl: string): WebClient => ({ base: `${publicUrl}/#/`, origin: publicUrl, routing: "hash" });

/**
 * A link into the configured web client: `route` is the spec's route without a leading slash ("dashboard/1"), `query`
 * its parameters. The only way links are built, so another client's customers land in their own app.
 */
export function webLink(client: WebClient, route: string, query?: Record<string, string>): string {
  const search = query ? `?${new URLSearchParams(query).toString()}` : "";
  return `${client.base}${route.replace(/^\/+/, "")}${search}`;
}
