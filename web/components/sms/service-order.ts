import type { SmsFavourite } from "../../../schema/sms";

/** The service list with the customer's starred services first (in the list's own order), each marked with a star. */
export function favouritesFirst<T extends { application_id: string | number; application: string }>(
  services: T[],
  provider: string,
  favourites: SmsFavourite[] | undefined,
): { service: T; starred: boolean }[] {
  const starred = new Set((favourites ?? []).filter((f) => f.provider === provider).map((f) => f.service_id));
  const marked = services.map((service) => ({ service, starred: starred.has(String(service.application_id)) }));
  return [...marked.filter((m) => m.starred), ...marked.filter((m) => !m.starred)];
}

export type CompareSort = "price" | "success";

/**
 * Routes sorted by price (cheapest first) or by success (highest rate first; routes without enough orders for a rate
 * after every route that has one, cheapest first among themselves).
 */
export function sortRoutes<T extends { price: number; stats: { success_rate: number } | null }>(routes: T[], by: CompareSort): T[] {
  const copy = [...routes];
  if (by === "price") return copy.sort((a, b) => a.price - b.price);
  return copy.sort((a, b) => {
    if (a.stats && b.stats) return b.stats.success_rate - a.stats.success_rate || a.price - b.price;
    if (a.stats) return -1;
    if (b.stats) return 1;
    return a.price - b.price;
  });
}
