import { smsFault, type FetchLike } from "./types";

export const DEFAULT_UPSTREAM_TIMEOUT_MS = 10_000;

/** Sent on every upstream call: some upstreams (and the CDNs in front of them) refuse requests without one. */
export const SMS_UPSTREAM_USER_AGENT = "virtual-numbers/1.0 (Cloudflare Workers)";

/**
 * One GET to an upstream with a time limit. Network failures, timeouts and 5xx/429 become transient faults; the body
 * comes back as text so each adapter decides what a valid reply is (upstreams answer HTML error pages too).
 */
export async function upstreamGet(
  fetcher: FetchLike,
  url: URL,
  timeoutMs: number,
): Promise<{ status: number; text: string; headers: Headers }> {
  let res: Response;
  try {
    res = await fetcher(new Request(url, { method: "GET", headers: { accept: "application/json, text/plain", "user-agent": SMS_UPSTREAM_USER_AGENT }, signal: AbortSignal.timeout(timeoutMs) }));
  } catch (err) {
    const name = err instanceof Error ? err.name : "";
    if (name === "TimeoutError" || name === "AbortError") throw smsFault("timeout", `no answer within ${timeoutMs} ms`);
    throw smsFault("unavailable", err instanceof Error ? err.message : String(err));
  }
  let text: string;
  try {
    text = await withTimeout(res.text(), timeoutMs);
  } catch {
    throw smsFault("timeout", "body not read in time");
  }
  if (res.status >= 500 || res.status === 429) throw smsFault("unavailable", `HTTP ${res.status}`);
  return { status: res.status, text, headers: res.headers };
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("timeout")), ms);
    promise.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (e) => {
        clearTimeout(timer);
        reject(e);
      },
    );
  });
}

/** A short, safe excerpt of a reply for logs (never the whole body). */
export function excerpt(text: string): string {
  return text.replace(/\s+/g, " ").slice(0, 120);
}
