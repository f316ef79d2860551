import { hc } from "hono/client";
import { D1_BOOKMARK_HEADER } from "../../schema/constants";
import type { CustomerApi, SandboxToolsApi } from "../../worker/contract/faces";
import { clearSession, getToken, getUser } from "../lib/session";

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

// ---------------------------------------------------------------------------------------------------------------
// The typed clients (issue 44, decision 065): Hono's `hc` over the API types computed from the worker's route
// definitions (worker/contract/faces.ts, imported as types only: no worker code reaches the bundle). A route's path,
// method, parameters, query, body and answer all come from its one definition, so a route that answers another shape
// breaks the web's type check where the answer is read. Every request goes through `send` below.

/** The spec's marker on signed-in calls: `send` adds the bearer token and applies the 401 rule to these. */
export const SIGNED_IN_MARKER = "x-requires-auth";

/** The customer's calls that need no sign-in (and must not send a token: the public price page shares the edge's copy). */
export const api = hc<CustomerApi>("/api", { fetch: send });

/** The customer's signed-in calls: `signedIn.sms.status[":request_id"].$get({ param: pathParams({ request_id }) })`. */
export const signedIn = hc<CustomerApi>("/api", { fetch: send, headers: { [SIGNED_IN_MARKER]: "true" } });

/** The sandbox tools (only with sandbox providers; worker/contract/sandbox-tools.ts). */
export const sandboxTools = hc<SandboxToolsApi>("/sandbox/nowpayments", { fetch: send });

/** A call's JSON answer: its route's success type (an error never gets here: `send` throws it as an ApiError). */
export const json = <T>(res: { json(): Promise<T> }): Promise<T> => res.json();

/** A call's text answer (the CSV exports). */
export const text = (res: { text(): Promise<string> }): Promise<string> => res.text();

/** Path parameters, encoded: hc writes them into the path as they are, and an id with a "/" would name another route. */
export function pathParams<K extends string>(values: Record<K, string>): Record<K, string> {
  const encoded = { ...values };
  for (const key in encoded) encoded[key] = encodeURIComponent(encoded[key]);
  return encoded;
}

// ---------------------------------------------------------------------------------------------------------------
// Reading one's own writes (issue 30): every answer carries the D1 session's bookmark (worker/lib/d1-session.ts);
// sent back, the next request reads at least what this customer's earlier requests wrote, whichever replica serves it.

const BOOKMARK_KEY = "d1-bookmark";

/** The last bookmark kept for this signed-in customer (none for anyone else, or signed out). */
export function bookmarkFor(userId: string | undefined): string | null {
  if (!userId) return null;
  try {
    const kept: unknown = JSON.parse(sessionStorage.getItem(BOOKMARK_KEY) ?? "null");
    if (typeof kept === "object" && kept !== null && "user" in kept && "bookmark" in kept && kept.user === userId && typeof kept.bookmark === "string") return kept.bookmark;
    return null;
  } catch {
    return null;
  }
}

/** Keeps the newest bookmark per customer: D1's bookmarks sort as strings, so a late answer never moves it back. */
function keepBookmark(userId: string | undefined, bookmark: string | null): void {
  if (!userId || !bookmark) return;
  const current = bookmarkFor(userId);
  if (current !== null && current >= bookmark) return;
  try {
    sessionStorage.setItem(BOOKMARK_KEY, JSON.stringify({ user: userId, bookmark }));
  } catch {
    // Storage refused: requests simply start at the primary, as without a bookmark.
  }
}

/** Issue 28: why this tab was signed out (the server's 401 message), shown once by the login page. */
export const SIGNED_OUT_REASON_KEY = "signed-out-reason";

/** The 401 rule (spec section 4): a signed-in call answered 401 clears the session and goes to login. */
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
 * The one fetch under every client: JSON accepted, the customer's bookmark sent and kept, the bearer token on signed-in
 * calls (a call may bring its own Authorization: logout revokes a session it has already cleared locally), and any
 * answer that is not a success turned into an ApiError with the server's one error body, whose message a person can act
 * on. A success is handed back unread, for the client to read as its route declares.
 */
export async function send(input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  headers.set("Accept", "application/json");
  const userId = getUser()?.userId;
  const bookmark = bookmarkFor(userId);
  if (bookmark) headers.set(D1_BOOKMARK_HEADER, bookmark);
  const auth = headers.has(SIGNED_IN_MARKER);
  const token = headers.get("Authorization")?.replace(/^Bearer\s+/i, "") || getToken();
  // Signed out (a logout just cleared the token while screens were still mounted): a signed-in call would only earn
  // a 401, so it is answered here without a request.
  if (auth && !token) throw new ApiError(401, "SIGNED_OUT", "Signed out.");
  if (auth && token) headers.set("Authorization", `Bearer ${token}`);
  let res: Response;
  try {
    res = await fetch(input, { ...init, headers, credentials: "include" });
  } catch {
    throw new ApiError(0, "NETWORK", "Network error: check your connection and try again.");
  }
  keepBookmark(userId, res.headers.get(D1_BOOKMARK_HEADER));
  if (res.ok) return res;
  const body = await errorBody(res);
  // Only when the token that was refused is still the stored one: a late answer to a request signed before a logout
  // or a password change (which hands this tab a fresh token) must not sign the customer out again.
  const message = String(body.message ?? body.error ?? `Request failed (${res.status})`);
  if (res.status === 401 && auth && token && getToken() === token) onUnauthorized(message);
  throw new ApiError(res.status, String(body.code ?? "HTTP_ERROR"), message, body);
}

/** The one error body (schema/errors.ts ErrorBody), read field by field: a proxy's page or an empty body has none. */
async function errorBody(res: Response): Promise<Record<string, unknown>> {
  try {
    const data: unknown = JSON.parse(await res.text());
    return data && typeof data === "object" ? Object.fromEntries(Object.entries(data)) : {};
  } catch {
    return {};
  }
}
