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
