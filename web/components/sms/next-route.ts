import type { SmsCompareRoute } from "../../../schema/sms";

/** One route as the server names it in `next_route.routes`. */
export type RouteRef = { provider: SmsCompareRoute["provider"]; country: string };

export const routeKey = (r: { provider: string; country_id: string }) => `${r.provider}:${r.country_id}`;

/**
 * The routes "try another number" may move on to, as the customer sees them: every other route selling the service,
 * in stock and within the cap (the server applies the same rules), cheapest first.
 */
export function nextRouteCandidates(routes: SmsCompareRoute[], current: { provider: string; countryId: string }, cap: number | undefined): SmsCompareRoute[] {
  return routes
    .filter((r) => !(r.provider === current.provider && r.country_id === current.countryId))
    .filter((r) => r.count > 0 && (cap === undefined || r.price <= cap))
    .sort((a, b) => a.price - b.price);
}

/**
 * What to send as `next_route.routes`: undefined while the customer allows every candidate (the server then also
 * allows a route that appears later), the ticked ones when some were unticked, and "none" when every one was: an
 * empty list would mean "any" to the server, the opposite of what the customer chose.
 */
export function allowedRoutes(candidates: SmsCompareRoute[], unticked: ReadonlySet<string>): RouteRef[] | undefined | "none" {
  const kept = candidates.filter((r) => !unticked.has(routeKey(r)));
  if (kept.length === candidates.length) return undefined;
  if (kept.length === 0) return "none";
  return kept.map((r) => ({ provider: r.provider, country: r.country_id }));
}
