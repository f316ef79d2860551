import { AppError } from "../../lib/errors";

/** How an adapter reaches its upstream: the real fetch live, the in-process simulator in sandbox, a fake in tests. */
export type FetchLike = (request: Request) => Promise<Response>;

export interface UpstreamOptions {
  baseUrl: string;
  fetch: FetchLike;
  /** Abort an upstream call after this long (default 10 s); tests pass a short one. */
  timeoutMs?: number;
}

/** What the adapter learned from a reply that was not a usable answer (kept out of customer messages and logs' secrets). */
export class UpstreamError extends AppError {
  constructor(
    readonly provider: string,
    readonly reason: "timeout" | "network" | "http" | "not_json" | "rejected",
    readonly httpStatus: number | null,
    detail: string,
  ) {
    super(
      reason === "timeout" ? "UPSTREAM_TIMEOUT" : "UPSTREAM_UNAVAILABLE",
      reason === "timeout"
        ? `${provider} did not answer in time. Please try again.`
        : `${provider} is unavailable right now. Please try again.`,
    );
    this.detail = detail;
  }
  readonly detail: string;
}

/**
 * One JSON call to an upstream with a hard deadline. The deadline is enforced here (not only through the signal)
 * so an injected fetch that ignores aborts still cannot hang a webhook or an alarm.
 * Returns the parsed JSON and the status; HTML or garbage becomes an UpstreamError, never a crash.
 */
export async function callUpstreamJson(
  provider: string,
  opts: UpstreamOptions,
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: unknown } = {},
): Promise<{ status: number; json: unknown }> {
  const timeoutMs = opts.timeoutMs ?? 10_000;
  const controller = new AbortController();
  const headers: Record<string, string> = { accept: "application/json", ...(init.headers ?? {}) };
  if (init.body !== undefined) headers["content-type"] = "application/json";
  const request = new Request(`${opts.baseUrl.replace(/\/+$/, "")}${path}`, {
    method: init.method ?? "GET",
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
    signal: controller.signal,
  });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new UpstreamError(provider, "timeout", null, `no answer within ${timeoutMs} ms`));
    }, timeoutMs);
  });
  try {
    const response = await Promise.race([opts.fetch(request), deadline]);
    const text = await Promise.race([response.text(), deadline]);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new UpstreamError(provider, "not_json", response.status, `HTTP ${response.status}, body is not JSON`);
    }
    return { status: response.status, json };
  } catch (err) {
    if (err instanceof UpstreamError) throw err;
    throw new UpstreamError(provider, "network", null, err instanceof Error ? err.message : String(err));
  } finally {
    if (timer !== undefined) clearTimeout(timer);
  }
}
