import { RENT_UNIT_MS } from "../../../schema/rentals";
import type { Db } from "../../db/client";
import { RENT_PROVIDER_NAME, type RentUpstream } from "../../providers/rent";
import type { RentChoice } from "../../providers/rent/types";
import { log } from "../../lib/log";
import { getSettings, lastAcceptedCosts, recordAcceptedCosts, refusedUpstreamPrice, rentPriceKobo, starterContext } from "../kernel";

/** The key a rental's cost is remembered under in upstream_prices (beside the provider's SMS services). */
export const rentPriceKey = (choice: Pick<RentChoice, "unit" | "period">) => `rent:${choice.unit}:${choice.period}`;

const DAY_MS = 86_400_000;

/**
 * Whose history and ceiling a rent upstream's prices are guarded by: sms-man's keep the name they always had (Dynamic);
 * HeroSMS's are its own (service_ceilings["herosms:rent"], history under "herosms"), as its SMS prices are (issue 49).
 */
export const rentGuardLabel = (upstream: RentUpstream): string => (upstream === "smsman" ? RENT_PROVIDER_NAME : upstream);

/**
 * The SMS buys' price guard (upstream-money.ts refusedUpstreamPrice, setting sms_price_guard) applied to one rental
 * quote. Rentals last from an hour to a year, so the ceiling is per day the rental lasts (a rental shorter than a day
 * counts as one): service_ceilings["<provider>:rent"], else ceiling_naira, times its days. The jump guard compares the
 * cost with the last accepted cost of the same country, unit and period. `history` false (a sandbox account's
 * simulated prices on a live deployment) neither reads nor writes the live history. Returns why the rental is refused.
 */
export async function guardRentPrice(
  db: Db,
  choice: RentChoice,
  quoted: { costUsd: number | null; currency: string },
  { history = true, upstream = "smsman" }: { history?: boolean; upstream?: RentUpstream } = {},
): Promise<string | null> {
  const s = await getSettings(db, ["sms_price_guard", "exchange_rate", "costs"]);
  const guard = s.sms_price_guard;
  const key = rentPriceKey(choice);
  const label = rentGuardLabel(upstream);
  const previous = history ? (await lastAcceptedCosts(db, label, choice.countryId, [key])).get(key) : undefined;
  const days = Math.max(1, Math.ceil((choice.period * RENT_UNIT_MS[choice.unit]) / DAY_MS));
  const perDay = guard.service_ceilings[`${label}:rent`] ?? guard.ceiling_naira;
  // The ceiling applies to the price before any discount tier: the highest any customer could be charged.
  const starter = starterContext(s.exchange_rate.rate, s.costs);
  const refused = refusedUpstreamPrice({
    costUsd: quoted.costUsd,
    currency: quoted.currency,
    priceNaira: (usd) => rentPriceKobo(usd, starter) / 100,
    ceilingNaira: perDay * days,
    previousUsd: previous,
    maxJump: guard.max_jump,
  });
  if (refused) {
    log("warn", "rental offer refused: implausible price", { countryId: choice.countryId, key, currency: quoted.currency, reason: refused });
    return refused;
  }
  if (history && (previous === undefined || Math.abs(previous - quoted.costUsd!) > 1e-9)) {
    await recordAcceptedCosts(db, label, choice.countryId, [{ key, costUsd: quoted.costUsd! }]);
  }
  return null;
}
