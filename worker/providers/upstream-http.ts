import { z } from "zod";
import { AppError } from "../lib/errors";

/**
 * The one HTTP client every upstream adapter uses (payments, e-mail, SMS, rentals): a hard deadline, a product
 * User-Agent on every call, the reply read as text and parsed as JSON or checked against a zod schema, and one fault
 * type (UpstreamFault) with one mapping to our error codes. Adapters keep only what is specific to their protocol.
 */

/** How an adapter reaches its upstream: the real fetch live, the in-process simulator in sandbox, a fake in tests. */
export type FetchLike = (request: Request) => Promise<Response> | Response;

export const DEFAULT_UPSTREAM_TIMEOUT_MS = 10_000;

/**
 * Sent on every upstream call. Resend refuses requests without a User-Agent (403, error code 1010): "All API requests
 * must include a User-Agent header" (https://resend.com/docs/api-reference/introduction). Workers' fetch sends none.
 */
export const UPSTREAM_USER_AGENT = "virtual-numbers/1.0 (+https://github.com/virtual-numbers; Cloudflare Workers)";

/**
 * timeout: no answer within the deadline. network: the request never got an answer (DNS, TLS, reset).
 * http: a 5xx or 429 (the upstream is down or throttling us: worth retrying later). not_json: the body was expected to
 * be JSON and is not (an HTML error page). bad_reply: JSON of the wrong shape. rejected: a well-formed refusal.
 */
export type UpstreamFaultReason = "timeout" | "network" | "http" | "not_json" | "bad_reply" | "rejected";

const TRANSIENT_REASONS: ReadonlySet<UpstreamFaultReason> = new Set(["timeout", "network", "http"]);

/**
 * An upstream failure. `message` is safe to show a customer (names the provider, never a key or the raw reply);
 * `detail` is for logs only. The code mapping is the one place our API's error codes meet upstream failures:
 * a timeout is UPSTREAM_TIMEOUT (504), everything else UPSTREAM_UNAVAILABLE (502).
 */
export class UpstreamFault extends AppError {
  override name = "UpstreamFault";
  constructor(
    readonly provider: string,
    readonly reason: UpstreamFaultReason,
    readonly httpStatus: number | null,
    readonly detail: string,
  ) {
    super(
      reason === "timeout" ? "UPSTREAM_TIMEOUT" : "UPSTREAM_UNAVAILABLE",
      reason === "timeout" ? `${provider} did not answer in time. Please try again.` : `${provider} is unavailable right now. Please try again.`,
    );
  }
  /** Worth trying again on the next tick; the other reasons are the upstream's final word on this request. */
  get transient(): boolean {
    return TRANSIENT_REASONS.has(this.reason);
  }
}

export interface UpstreamClientOptions {
  /** The provider's name as customers and operators know it ("Squad", "NOWPayments", "Resend"). */
  provider: string;
  /** From configuration (every provider's base URL is a variable: see the README's configuration table). */
  baseUrl: string;
  fetch?: FetchLike;
  /** Abort a call after this long (default 10 s); tests pass a short one. */
  timeoutMs?: number;
  /** Sent on every call (auth headers). */
  headers?: Record<string, string>;
}

export interface UpstreamRequest {
  method?: string;
  query?: Record<string, string | number | undefined>;
  headers?: Record<string, string>;
  /** Serialised as JSON with content-type application/json. */
  json?: unknown;
  /** What we accept back (default JSON, then text). */
  accept?: string;
}

export interface UpstreamReply {
  status: number;
  headers: Headers;
  text: string;
}

export interface UpstreamClient {
  readonly provider: string;
  /** The full URL of a path under the base URL (the base may itself carry a path, e.g. /v1 or handler_api.php). */
  url(path: string, query?: UpstreamRequest["query"]): URL;
  /** Any status comes back; only a timeout or a network failure throws. */
  request(path: string, init?: UpstreamRequest): Promise<UpstreamReply>;
  /** request() and the body parsed as JSON; a body that is not JSON is a `not_json` fault. */
  requestJson(path: string, init?: UpstreamRequest): Promise<{ status: number; headers: Headers; json: unknown }>;
  /** A fault for this provider (for adapters that find a reply unusable). */
  fault(reason: UpstreamFaultReason, httpStatus: number | null, detail: string): UpstreamFault;
  /** The value checked against the provider's documented reply schema; a mismatch is a `bad_reply` fault. */
  parse<S extends z.ZodType>(schema: S, value: unknown, what: string, httpStatus?: number): z.infer<S>;
  /**
   * The one mapping of a JSON reply an adapter cannot use, by its status: a 5xx or 429 is `http` (the upstream is down
   * or throttling: transient), a 2xx is `bad_reply` (an answer of the wrong shape), anything else is `rejected` (the
   * provider's refusal: a bad key, bad parameters). `detail` is the provider's own error words, for logs.
   */
  unusable(what: string, status: number, detail: string): UpstreamFault;
}

export function createUpstreamClient(opts: UpstreamClientOptions): UpstreamClient {
  const fetcher: FetchLike = opts.fetch ?? ((request) => fetch(request));
  const timeoutMs = opts.timeoutMs ?? DEFAULT_UPSTREAM_TIMEOUT_MS;
  const base = opts.baseUrl.replace(/\/+$/, "");
  const fault = (reason: UpstreamFaultReason, httpStatus: number | null, detail: string) =>
    new UpstreamFault(opts.provider, reason, httpStatus, detail);

  function url(path: string, query?: UpstreamRequest["query"]): URL {
    const u = new URL(path ? `${base}${path.startsWith("/") ? "" : "/"}${path}` : base);
    for (const [key, value] of Object.entries(query ?? {})) if (value !== undefined) u.searchParams.set(key, String(value));
    return u;
  }

  async function request(path: string, init: UpstreamRequest = {}): Promise<UpstreamReply> {
    const headers: Record<string, string> = {
      accept: init.accept ?? "application/json, text/plain;q=0.9",
      "user-agent": UPSTREAM_USER_AGENT,
      ...(opts.headers ?? {}),
      ...(init.headers ?? {}),
    };
    if (init.json !== undefined) headers["content-type"] = "application/json";
    const controller = new AbortController();
    const req = new Request(url(path, init.query), {
      method: init.method ?? "GET",
      headers,
      body: init.json === undefined ? undefined : JSON.stringify(init.json),
      signal: controller.signal,
    });
    // The deadline races the call as well as signalling it: an injected fetch that ignores aborts still cannot hang
    // a webhook, an alarm or a customer's request.
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        controller.abort();
        reject(fault("timeout", null, `no answer within ${timeoutMs} ms`));
      }, timeoutMs);
    });
    try {
      const response = await Promise.race([Promise.resolve(fetcher(req)), deadline]);
      const text = await Promise.race([response.text(), deadline]);
      return { status: response.status, headers: response.headers, text };
    } catch (err) {
      if (err instanceof UpstreamFault) throw err;
      // A fetch that honours the abort rejects (AbortError) in the same tick as the deadline: still a timeout.
      if (controller.signal.aborted) throw fault("timeout", null, `no answer within ${timeoutMs} ms`);
      throw fault("network", null, err instanceof Error ? `${err.name}: ${err.message}` : String(err));
    } finally {
      if (timer !== undefined) clearTimeout(timer);
    }
  }

  async function requestJson(path: string, init: UpstreamRequest = {}) {
    const reply = await request(path, init);
    let json: unknown;
    try {
      json = JSON.parse(reply.text);
    } catch {
      throw fault(reply.status >= 500 || reply.status === 429 ? "http" : "not_json", reply.status, `HTTP ${reply.status}, body is not JSON: ${excerpt(reply.text)}`);
    }
    return { status: reply.status, headers: reply.headers, json };
  }

  function parse<S extends z.ZodType>(schema: S, value: unknown, what: string, httpStatus?: number): z.infer<S> {
    const parsed = schema.safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw fault("bad_reply", httpStatus ?? null, `${what}: unexpected reply (${issue ? `${issue.path.join(".") || "body"}: ${issue.message}` : "invalid"})`);
    }
    return parsed.data;
  }

  function unusable(what: string, status: number, detail: string): UpstreamFault {
    const reason: UpstreamFaultReason = status >= 500 || status === 429 ? "http" : status >= 200 && status < 300 ? "bad_reply" : "rejected";
    return fault(reason, status, `${what}: HTTP ${status}: ${detail}`);
  }

  return { provider: opts.provider, url, request, requestJson, fault, parse, unusable };
}

/** A short, safe excerpt of a reply for logs (never the whole body). */
export function excerpt(text: string): string {
  return text.replace(/\s+/g, " ").slice(0, 120);
}

/** The `message` of a JSON error reply, shortened for logs; "unexpected reply" when there is none. */
export function replyMessage(json: unknown): string {
  const parsed = messageReplySchema.safeParse(json);
  return parsed.success ? String(parsed.data.message).slice(0, 200) : "unexpected reply";
}

// Squad's and Resend's error replies carry a human `message` (a string; a number or a list is still shown as text).
const messageReplySchema = z.object({ message: z.union([z.string(), z.number(), z.array(z.unknown())]) });
