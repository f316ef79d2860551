/**
 * wrangler dev's own 503 (decision 058). wrangler dev puts a ProxyWorker (a second workerd) in front of the app; it
 * forwards each request over a pooled keep-alive connection. When that hop fails before the app has answered
 * ("Network connection lost.": the app's workerd closed the pooled connection as idle while the proxy was writing the
 * next request onto it, cloudflare/workers-sdk#14641), wrangler 4.86's ProxyWorker mistakes the failure for a reload
 * (it compares the request's whole URL with the app's bare origin: workers-sdk#14593, fixed upstream after our
 * version) and answers a non-GET request with this plain-text 503; a GET or HEAD it sends again by itself. Nothing
 * reloads, and the app never saw the request (measured: decision 058), so the client may send it again. Production has
 * no such proxy: the app itself never answers with this text (its 503 is the JSON NO_NUMBERS error).
 */
export const DEV_PROXY_RESTART_TEXT =
  "Your worker restarted mid-request. Please try sending the request again. Only GET or HEAD requests are retried automatically.";

/** How many times a benchmark sends a request again after the dev proxy's 503 (each one is counted and reported). */
export const DEV_PROXY_RESENDS = 3;

/** Whether an answer is wrangler dev's proxy 503 (not the app's): the exact status, `Retry-After: 0` and text. */
export function isDevProxyRestart(status: number, retryAfter: string | null, text: string): boolean {
  return status === 503 && retryAfter === "0" && text === DEV_PROXY_RESTART_TEXT;
}
