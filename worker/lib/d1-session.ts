import { D1_BOOKMARK_HEADER } from "../../schema/constants";

/**
 * Every request's D1 runs in a D1 session (Sessions API, https://developers.cloudflare.com/d1/best-practices/read-replication/),
 * so read replicas can serve what may be slightly stale while a customer always reads their own writes (issue 30):
 *  - a request that sends the bookmark of its last answer (`x-d1-bookmark`, echoed by a client that keeps it per
 *    customer) continues from it: its reads see at least everything that customer's earlier requests wrote;
 *  - an anonymous GET (the catalogue, the price list, public settings) needs no particular freshness:
 *    "first-unconstrained", any replica;
 *  - anything else without a bookmark starts at the primary ("first-primary"), today's behaviour, so a client that
 *    never echoes the header reads exactly what it read before.
 * Every answer carries the session's bookmark after the request's own writes. Durable Objects, the sweep and the
 * sandbox simulators keep the plain binding (the primary).
 */
export const BOOKMARK_HEADER = D1_BOOKMARK_HEADER;

/** D1's bookmarks are opaque, lexicographically sortable strings of hex groups; anything else is ignored, never sent to D1. */
const BOOKMARK = /^[0-9a-f]{1,64}(-[0-9a-f]{1,64}){0,7}$/i;

export function sessionConstraint(request: Request): string {
  const given = request.headers.get(BOOKMARK_HEADER);
  if (given && given.length <= 256 && BOOKMARK.test(given)) return given;
  const read = request.method === "GET" || request.method === "HEAD";
  return read && !request.headers.has("authorization") ? "first-unconstrained" : "first-primary";
}

/** The request's env with its D1 binding in a session, and the session's bookmark once the request is answered. */
export function withD1Session<E extends { DB: D1Database }>(env: E, request: Request): { env: E; bookmark: () => string | null } {
  if (typeof env.DB.withSession !== "function") return { env, bookmark: () => null };
  const session = env.DB.withSession(sessionConstraint(request));
  // drizzle and our own code use prepare() and batch() only, which a session has.
  return { env: { ...env, DB: session as unknown as D1Database }, bookmark: () => session.getBookmark() };
}
