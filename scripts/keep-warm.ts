/**
 * Keeps wrangler dev's proxy-to-app connections fresh (decision 058). wrangler dev's proxy (a second workerd in front
 * of the app) forwards each request over a pooled keep-alive connection, and the app's workerd closes a connection left
 * idle for 5 s just as the proxy's pool may hand it out again (cloudflare/workers-sdk#14641). A request written onto
 * it fails; wrangler 4.86 then answers a POST with its own 503 "Your worker restarted mid-request" and, for a request
 * to "/" exactly, reports a fatal error and exits (workers-sdk#14593, #14926). It happens to the first request after
 * about 5 s of quiet: a page load after the operator CLI ran, for instance. One cheap request a second (GET
 * /api/health reads no D1), never two at once, keeps the connection the pool hands out next at most a second idle.
 */
export const KEEP_WARM_MS = 1000;

export function keepWarm(url: string, opts: { everyMs?: number; fetch?: (url: string) => Promise<{ arrayBuffer(): Promise<unknown> }> } = {}) {
  const get = opts.fetch ?? ((u: string) => fetch(u));
  let inFlight = false;
  const timer = setInterval(() => {
    if (inFlight) return;
    inFlight = true;
    get(url)
      .then((res) => res.arrayBuffer())
      .catch(() => undefined)
      .finally(() => {
        inFlight = false;
      });
  }, opts.everyMs ?? KEEP_WARM_MS);
  timer.unref();
  return timer;
}
