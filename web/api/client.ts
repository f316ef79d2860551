import { D1_BOOKMARK_HEADER } from "../../schema/constants";
import type { WebApi, WebRoute } from "../../schema/web-api";
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

type RequestOptions = {
  method: string;
  body?: unknown;
  auth?: boolean;
  signal?: AbortSignal;
  /** Sign with this token instead of the stored one (logout revokes a session it has already cleared locally). */
  token?: string;
  /** Answer the body as text (a CSV export) instead of parsing JSON. */
  text?: boolean;
};

// ---------------------------------------------------------------------------------------------------------------
// The typed entries (issue 29, decisions 043 and 053): routes, what they take and the one shape each answers come from
// a route map in schema/ (web-api.ts for the customer's screens, admin-api.ts for the console), each checked against
// the worker's own routes at compile time by worker/routes/web-contract.ts.

/** A route map: "METHOD /path" keys, each with its answer and what it may send. */
export type RouteMap<M> = { [R in keyof M]: { answer: unknown; body?: unknown; query?: unknown; text?: true } };

type PathOf<R> = R extends `${string} ${infer P}` ? P : never;
type ParamNames<P> = P extends `${string}:${infer Name}/${infer Rest}` ? Name | ParamNames<`/${Rest}`> : P extends `${string}:${infer Name}` ? Name : never;
type ParamsPart<R> = [ParamNames<PathOf<R>>] extends [never] ? unknown : { params: Record<ParamNames<PathOf<R>>, string> };
type QueryPart<E> = E extends { query: infer Q } ? (object extends Q ? { query?: Q } : { query: Q }) : unknown;
type BodyPart<E> = E extends { body: infer B } ? { body: B } : unknown;

/** What a call to `route` of the map `M` takes: its path parameters, query and body as the map declares them. */
export type RouteOptions<M, R extends keyof M> = ParamsPart<R> &
  QueryPart<M[R]> &
  BodyPart<M[R]> & {
    /** A signed-in call: the bearer token, the spec's x-requires-auth marker and the 401 rule. */
    auth?: boolean;
    signal?: AbortSignal;
    token?: string;
  };
/** The options as a rest argument: optional when nothing in them is required. */
export type RouteArgs<M, R extends keyof M> = object extends RouteOptions<M, R> ? [options?: RouteOptions<M, R>] : [options: RouteOptions<M, R>];
type LooseOptions = { params?: Record<string, string>; query?: object; body?: unknown; auth?: boolean; signal?: AbortSignal; token?: string };

/**
 * Calls one route of the map `M` and answers its declared shape. The path's parameters are filled (encoded), the query
 * is written from its defined values. The one place an answer takes its type: each map is held against the worker's
 * routes at compile time, so no caller names (or casts to) an answer type.
 */
export function callRoute<M extends RouteMap<M>, R extends keyof M & string>(
  route: R,
  options: RouteOptions<M, R> | undefined,
  how: { text?: boolean; auth?: boolean } = {},
): Promise<M[R]["answer"]> {
  const opts: LooseOptions = options ?? {};
  const space = route.indexOf(" ");
  const params = opts.params ?? {};
  let path = route.slice(space + 1).replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(params[name] ?? ""));
  const query = Object.entries(opts.query ?? {}).filter(([, value]) => value !== undefined && value !== null);
  if (query.length > 0) path += `?${new URLSearchParams(query.map(([key, value]) => [key, String(value)])).toString()}`;
  const auth = how.auth ?? opts.auth;
  // eslint-disable-next-line @typescript-eslint/consistent-type-assertions, no-restricted-syntax -- the one place: each map is checked against the worker (web-contract.ts)
  return request(path, { method: route.slice(0, space), body: opts.body, auth, signal: opts.signal, token: opts.token, text: how.text }) as Promise<M[R]["answer"]>;
}

/** What a customer call to `route` takes. */
export type CallOptions<R extends WebRoute> = RouteOptions<WebApi, R>;
/** What `route` answers (its one declared shape). */
export type Answer<R extends WebRoute> = WebApi[R]["answer"];

/**
 * Calls one route of the customer's contract: `api("GET /api/sms/status/:request_id", { params: { request_id }, auth: true })`.
 */
export function api<R extends WebRoute>(route: R, ...[options]: RouteArgs<WebApi, R>): Promise<Answer<R>> {
  return callRoute<WebApi, R>(route, options, { text: route in TEXT_ROUTES });
}

/** The routes answered as a file's text rather than JSON: every entry the contract marks `text: true`, no other. */
type TextRoute = { [R in WebRoute]: WebApi[R] extends { text: true } ? R : never }[WebRoute];
const TEXT_ROUTES: Record<TextRoute, true> = { "GET /api/export/transactions.csv": true, "GET /api/export/orders.csv": true };

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
 * The one fetch: JSON in and out, the bearer token and the spec's x-requires-auth marker on signed-in calls,
 * and the server's error body turned into an ApiError whose message a person can act on.
 */
async function request(path: string, opts: RequestOptions): Promise<unknown> {
  const headers: Record<string, string> = { Accept: "application/json" };
  const userId = getUser()?.userId;
  const bookmark = bookmarkFor(userId);
  if (bookmark) headers[D1_BOOKMARK_HEADER] = bookmark;
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
      method: opts.method,
      headers,
      body: opts.body !== undefined ? JSON.stringify(opts.body) : undefined,
      credentials: "include",
      signal: opts.signal,
    });
  } catch {
    throw new ApiError(0, "NETWORK", "Network error: check your connection and try again.");
  }
  keepBookmark(userId, res.headers.get(D1_BOOKMARK_HEADER));
  const text = await res.text();
  let data: unknown = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!res.ok) {
    // The one error body (schema/errors.ts ErrorBody), read field by field: a proxy's page or an empty body has none.
    const body: Record<string, unknown> = data && typeof data === "object" ? Object.fromEntries(Object.entries(data)) : {};
    // Only when the token that was refused is still the stored one: a late answer to a request signed before a logout
    // or a password change (which hands this tab a fresh token) must not sign the customer out again.
    const message = String(body.message ?? body.error ?? `Request failed (${res.status})`);
    if (res.status === 401 && opts.auth && token && getToken() === token) onUnauthorized(message);
    throw new ApiError(res.status, String(body.code ?? "HTTP_ERROR"), message, body);
  }
  return opts.text ? text : data;
}
