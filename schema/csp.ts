/**
 * Content-Security-Policy (issue 12 hole 9, decision 021). The session token sits in localStorage, so the policy is
 * what stands between an injected script and every customer's wallet:
 * - scripts only from our origin, plus the two inline scripts of index.html by their sha256 (computed by the web build
 *   from the bytes it wrote, web/vite.config.ts `cspHashes`; never hand-copied), no 'unsafe-inline', no eval;
 * - connections only to our origin (fetch, and the realtime socket on PUBLIC_URL's ws:/wss: twin);
 * - images only from our origin and the https hosts the operator configured for ads (the `ads` setting);
 * - no plugins, no <base>, no framing, forms only to ourselves.
 * In schema/ because the web build (web/vite.config.ts, Node), the worker and the tests use the same functions.
 */

/** Where the web build writes the hashes of index.html's inline scripts (web/dist/csp-hashes.json, served as an asset). */
export const CSP_HASHES_FILE = "csp-hashes.json";

export interface CspHashes {
  /** 'sha256-…' sources, one per inline script of the emitted index.html, in document order. */
  scriptHashes: string[];
}

/**
 * Every response that is not the app's document: the JSON API, the worker's own small pages (sandbox checkout, outbox,
 * unsubscribe: inline <style> and style attributes, forms posting to themselves) and the static files (web/public/_headers
 * carries the same string, held equal by a test). Nothing may run, load or frame it.
 */
export const NON_DOCUMENT_POLICY =
  "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

/** The inline <script> elements of a document (no src attribute), with their text exactly as a browser hashes it. */
export function inlineScripts(html: string): string[] {
  const scripts: string[] = [];
  const tag = /<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi;
  let opened = 0;
  for (const m of html.matchAll(tag)) {
    opened += 1;
    if (/\ssrc\s*=/i.test(` ${m[1]}`)) continue;
    // The HTML parser turns CRLF and lone CR into LF before the script's text exists: hash what the browser hashes.
    scripts.push(m[2].replace(/\r\n?/g, "\n"));
  }
  // A <script that the pattern above did not pair with its end tag would go unhashed and then be blocked: refuse it.
  if ((html.match(/<script\b/gi) ?? []).length !== opened) throw new Error("csp: a <script> element could not be read");
  return scripts;
}

/** 'sha256-<base64>' of a script's text (UTF-8), as CSP Level 2 hash sources are written. */
async function sha256Source(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  let binary = "";
  for (const byte of new Uint8Array(digest)) binary += String.fromCharCode(byte);
  return `'sha256-${btoa(binary)}'`;
}

export async function inlineScriptHashes(html: string): Promise<string[]> {
  return Promise.all(inlineScripts(html).map(sha256Source));
}

/** The https origins of the configured ad images (paths on our own site need nothing: 'self'). */
export function adImageOrigins(ads: ReadonlyArray<{ url: string }>): string[] {
  const origins = new Set<string>();
  for (const ad of ads) {
    if (!ad.url.startsWith("https://")) continue;
    try {
      const origin = new URL(ad.url).origin;
      // URL's serialisation has no spaces, quotes or semicolons, so an origin can never add a directive of its own.
      if (/^https:\/\/[a-z0-9.-]+(:\d+)?$/i.test(origin)) origins.add(origin);
    } catch {
      // an address the settings schema let through but URL cannot read: no image host
    }
  }
  return [...origins].sort();
}

/** PUBLIC_URL's WebSocket twin: http→ws, https→wss (the realtime rooms live at /parties/* on the same origin). */
function socketOrigin(publicUrl: string): string {
  const url = new URL(publicUrl);
  return `${url.protocol === "https:" ? "wss:" : "ws:"}//${url.host}`;
}

/**
 * The service worker's own policy (/sw.js, issue 47): what the worker itself may fetch. It calls our API (the
 * subscription's renewal) and loads the notification icons from our origin; nothing else.
 */
export const SERVICE_WORKER_POLICY = "default-src 'none'; connect-src 'self'; img-src 'self'";

/** The policy of the app's document (index.html at / and every address the single-page app answers). */
export function documentPolicy(opts: { publicUrl: string; scriptHashes: readonly string[]; adImageOrigins: readonly string[] }): string {
  const directives: [string, ...string[]][] = [
    ["default-src", "'self'"],
    ["script-src", "'self'", ...opts.scriptHashes],
    // Styles stay 'unsafe-inline' (decision 021): React style attributes, the toast library's runtime <style> and the
    // prerendered page's inline stylesheet (decision 010). Styles cannot run code, and the ways CSS could carry data
    // out (images, fonts, connections) are held to our origin below.
    ["style-src", "'self'", "'unsafe-inline'"],
    // Ads' images are absolute on PUBLIC_URL (decision 032, for other web clients): the same origin as 'self' in
    // production, named so a page opened at another local name (localhost for passkeys, decision 034) still shows them.
    ["img-src", "'self'", new URL(opts.publicUrl).origin, ...opts.adImageOrigins],
    ["font-src", "'self'"],
    ["connect-src", "'self'", socketOrigin(opts.publicUrl)],
    ["object-src", "'none'"],
    ["frame-src", "'none'"],
    // The service worker (issue 47, /sw.js): our own script only; no other worker may start.
    ["worker-src", "'self'"],
    ["base-uri", "'none'"],
    ["form-action", "'self'"],
    ["frame-ancestors", "'none'"],
  ];
  return directives.map((d) => d.join(" ")).join("; ");
}

/** A policy read back into its directives (tests, and the journeys' header check). */
export function parsePolicy(policy: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const part of policy.split(";")) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name) out.set(name.toLowerCase(), values);
  }
  return out;
}
