import type { ErrorBody } from "../../schema/errors";
import { clearSession, getToken } from "../lib/session";

/** An API failure with the server's one error body. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly body: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

type RequestOptions = {
  method?: string;
  body?: unknown;
  auth?: boolean;
  signal?: AbortSignal;
  /** Sign with this token instead of the stored one (logout revokes a session it has already cleared locally). */
  token?: string;
  /** Answer the body as text (a CSV export) instead of parsing JSON. */
  text?: boolean;
};

/** The 401 rule (spec section 4): a signed-in call answered 401 clears the session and goes to login. */
/** Issue 28: why this tab was signed out (the server's 401 message), shown once by the login page. */
export const SIGNED_OUT_REASON_KEY = "signed-out-reason";

function onUnauthorized(reason?: string) {
  clearSession();
  try {
    if (reason) sessionStorage.setItem(SIGNED_OUT_REASON_KEY, reason);
  } catch {
    // Storage refused (private mode): the login page simply shows no reason.
  }
  const hash = window.location.hash;
  if (!hash.startsWith("#/login")) window.location.hash = "#/login";
}

/**
 * The one fetch wrapper: JSON in and out, the bearer token and the spec's x-requires-auth marker on signed-in calls,
 * and the server's error body turned into an ApiError whose message a person can act on.
 */
export async function apiFetch<T>(path: string, opts: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { Accept: "application/json" };
  if (opts.body !== undefined) headers["Content-Type"] = "application/json";
  const token = opts.token ?? getToken();
  // Signed out (a logout just cleared the token while screens were still mounted): a signed-in call would only earn
  // a 401, so it is answered here without a request.
  if (opts.auth && !token) throw new ApiError(401, "SIGNED_OUT", "Signed out.");
  if (opts.auth) {
    headers["x-requires-auth"] = "true";
    if (token) headers.Authorization = `Bearer ${token}`;
  }
  let res: Response;
  try {
    res = await fetch(path, {
      method: opts.method ?? (opts.body !== undefined ? "POST" : "GET"),
      headers,
      body: opts.body !== undefined ? JSON.stringify(opts.body) : undefined,
      credentials: "include",
      signal: opts.signal,
    });
  } catch {
    throw new ApiError(0, "NETWORK", "Network error: check your connection and try again.");
  }
  const text = await res.text();
  let data: unknown = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!res.ok) {
    const body = (data && typeof data === "object" ? data : {}) as Partial<ErrorBody>;
    // Only when the token that was refused is still the stored one: a late answer to a request signed before a logout
    // or a password change (which hands this tab a fresh token) must not sign the customer out again.
    const message = String(body.message ?? body.error ?? `Request failed (${res.status})`);
    if (res.status === 401 && opts.auth && token && getToken() === token) onUnauthorized(message);
    throw new ApiError(res.status, String(body.code ?? "HTTP_ERROR"), message, body);
  }
  return (opts.text ? text : data) as T;
}
