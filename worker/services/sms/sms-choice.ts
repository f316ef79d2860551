import { and, desc, eq, gte, inArray, isNotNull, sql } from "drizzle-orm";
import { koboToNaira } from "../../../schema/money";
import { COMPARE_MIN_SAMPLE, COMPARE_WINDOW_DAYS, MAX_SMS_FAVOURITES, type SmsCompareResponse, type SmsCompareRoute, type SmsFavouritesResponse } from "../../../schema/sms";
import { SMS_PROVIDERS, type SmsProviderName } from "../../../schema/constants";
import type { Db } from "../../db/client";
import { getDb } from "../../db/client";
import { smsFavourites, smsOrders } from "./tables";
import { AppError } from "../../lib/errors";
import { log } from "../../lib/log";
import { catalogueFor, type PricedBuyer, pricingContext, type SmsCatalogueDeps, smsPriceKobo } from "../kernel";
import { STATS_STATUSES, summariseProviderOrders } from "./provider-stats";
import { smsCountries, smsOffers } from "./sms-catalogue";

/**
 * Choosing a Receive-SMS route well (issue 17): the customer's starred services (server-side, so every device sees the
 * same), and the compare view of every provider and country selling one service, with our own outcomes of the last
 * 7 days shown only where the sample is big enough to mean something.
 */

export async function listFavourites(db: Db, userId: string): Promise<SmsFavouritesResponse> {
  const rows = await db
    .select({ provider: smsFavourites.provider, serviceId: smsFavourites.serviceId })
    .from(smsFavourites)
    .where(eq(smsFavourites.userId, userId))
    .orderBy(desc(smsFavourites.createdAt))
    .limit(MAX_SMS_FAVOURITES);
  return { favourites: rows.map((r) => ({ provider: r.provider as SmsProviderName, service_id: r.serviceId })) };
}

/** Stars or un-stars one service; repeating either is a no-op. Answers the list as it now is. */
export async function setFavourite(db: Db, userId: string, provider: SmsProviderName, serviceId: string, starred: boolean, now: number): Promise<SmsFavouritesResponse> {
  if (starred) {
    const [{ n }] = await db.select({ n: sql<number>`count(*)` }).from(smsFavourites).where(eq(smsFavourites.userId, userId));
    if (n >= MAX_SMS_FAVOURITES) throw new AppError("VALIDATION_FAILED", `You can star at most ${MAX_SMS_FAVOURITES} services. Remove one first.`);
    await db.insert(smsFavourites).values({ userId, provider, serviceId, createdAt: now }).onConflictDoNothing();
  } else {
    await db
      .delete(smsFavourites)
      .where(and(eq(smsFavourites.userId, userId), eq(smsFavourites.provider, provider), eq(smsFavourites.serviceId, serviceId)));
  }
  return listFavourites(db, userId);
}

/**
 * Every route selling the service the customer chose (`serviceId` of `provider`), across both providers and every
 * country, matched by the service's name (each provider has its own ids), priced for this customer. Our stats per
 * route come from sms_orders of the last 7 days: the same reading as the operator's provider figures, grouped per
 * provider and country for this one service.
 */
export async function compareRoutes(
  deps: SmsCatalogueDeps,
  user: { id: string } & PricedBuyer,
  provider: SmsProviderName,
  serviceId: string,
  now: number,
): Promise<SmsCompareResponse> {
  const catalogue = catalogueFor(deps, user.id);
  const env = catalogue.env;
  const db = getDb(env.DB);
  const ctx = await pricingContext(db, user);

  // The service's name, from any country of the provider the customer chose it in.
  const routes: SmsCompareRoute[] = [];
  const perProvider = await Promise.all(
    SMS_PROVIDERS.map(async (p) => {
      try {
        const countries = await smsCountries(catalogue, p);
        const lists = await Promise.all(
          countries.map(async (c) => ({ country: c, offers: await smsOffers(catalogue, p, c.id).catch(() => []) })),
        );
        return { provider: p, lists };
      } catch (err) {
        // A provider that is down (or below its health floor) is simply not in the comparison.
        log("info", "compare: provider unavailable", { provider: p, error: err instanceof Error ? err.message : String(err) });
        return { provider: p, lists: [] };
      }
    }),
  );
  const name = perProvider
    .find((x) => x.provider === provider)
    ?.lists.flatMap((l) => l.offers)
    .find((o) => o.serviceId === serviceId)?.name;
  if (!name) throw new AppError("NOT_FOUND", "This service is not offered by the selected provider.");
  const key = name.trim().toLowerCase();

  for (const { provider: p, lists } of perProvider) {
    for (const { country, offers } of lists) {
      const offer = offers.find((o) => o.name.trim().toLowerCase() === key && !o.refused);
      if (!offer) continue;
      routes.push({
        provider: p,
        country_id: country.id,
        country: country.title,
        service_id: offer.serviceId,
        service: offer.name,
        price: koboToNaira(smsPriceKobo(offer.costUsd, ctx)),
        count: offer.count,
        sample: 0,
        stats: null,
      });
    }
  }

  const since = now - COMPARE_WINDOW_DAYS * 86_400_000;
  const rows = await db
    .select({
      provider: smsOrders.provider,
      countryId: smsOrders.countryId,
      serviceName: smsOrders.serviceName,
      status: smsOrders.status,
      createdAt: smsOrders.createdAt,
      updatedAt: smsOrders.updatedAt,
    })
    .from(smsOrders)
    .where(
      and(
        gte(smsOrders.createdAt, since),
        isNotNull(smsOrders.number),
        inArray(smsOrders.status, [...STATS_STATUSES]),
        sql`lower(trim(${smsOrders.serviceName})) = ${key}`,
      ),
    );
  // One service, so grouping "per provider and service" by the country id groups per route.
  const summary = summariseProviderOrders(rows.map((r) => ({ ...r, serviceId: r.countryId })));
  for (const route of routes) {
    const s = summary.find((x) => x.provider === route.provider && x.serviceId === route.country_id);
    if (!s) continue;
    // A route is counted from settled orders only: a number still waiting has no outcome yet.
    const settled = s.codes + s.refunds;
    route.sample = settled;
    route.stats =
      settled >= COMPARE_MIN_SAMPLE ? { success_rate: Math.round((s.codes / settled) * 1000) / 1000, median_seconds_to_code: s.medianSecondsToCode } : null;
  }
  routes.sort((a, b) => a.price - b.price);
  return { service: name, min_sample: COMPARE_MIN_SAMPLE, window_days: COMPARE_WINDOW_DAYS, routes };
}
