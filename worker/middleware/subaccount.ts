import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../app-env";
import { getDb, type Db } from "../db/client";
import type { SignedInUser } from "../services/accounts";
import { AppError } from "../lib/errors";
import { actingSubaccount, markupForSubaccount, requireReseller } from "../services/resellers";

/** The header a reseller's request names the sub-account it acts as with (issue 46, docs/developer-api.md). */
export const SUBACCOUNT_HEADER = "X-Subaccount";

/** The requests that spend money: a frozen sub-account may read and cancel, never these. */
const SPENDING = [/^\/api\/v1\/sms\/orders\/?$/, /^\/api\/v1\/rentals\/?$/];

/**
 * After requireApiKey: a request with `X-Subaccount: <id>` acts as that sub-account's wallet (buys, rentals, orders,
 * balance), the key's account staying the reseller. The sub-account must be the acting account's (another reseller's is
 * 404, like any id that is not yours), not closed, and for a purchase not frozen; the key's owner must still be a
 * reseller. The sub-accounts' own routes take no such header (they act on the reseller's wallet).
 */
export const actAsSubaccount = createMiddleware<AppEnv>(async (c, next) => {
  const id = c.req.header(SUBACCOUNT_HEADER)?.trim();
  if (!id) return next();
  const path = new URL(c.req.url).pathname;
  if (/^\/api\/v1\/(subaccounts|webhook|markups)(\/|$)/.test(path)) {
    throw new AppError("VALIDATION_FAILED", `${SUBACCOUNT_HEADER} names the wallet to buy as; leave it off /subaccounts, /markups and /webhook requests.`, { field: SUBACCOUNT_HEADER });
  }
  const spends = c.req.method === "POST" && SPENDING.some((p) => p.test(path));
  c.set("user", await subaccountUser(getDb(c.env.DB), c.var.apiCaller.key.userId, c.var.user, id, spends));
  await next();
});

/**
 * The signed-in user a reseller's request acts as when it names sub-account `id` (the JSON API's header, the
 * SMS-Activate protocol's `subaccount` parameter): the key's owner (`ownerId`) must be a reseller (403), the sub-account
 * the acting account's (404 otherwise), not closed, and not frozen when the request `spends` (409).
 */
export async function subaccountUser(db: Db, ownerId: string, acting: SignedInUser, id: string, spends: boolean): Promise<SignedInUser> {
  const reseller = await requireReseller(db, ownerId);
  const sub = await actingSubaccount(db, acting.id, id, spends);
  // Its prices carry the reseller's markup, the margin going to the acting account (the sub-account's parent).
  const resellerMarkup = await markupForSubaccount(db, reseller.userId, acting.id, reseller.markupBasisPoints);
  // The sub-account's own wallet; the reseller's tiers (totalDepositedKobo, wholesaleVolumeKobo: decision 074) and contact
  // details stay.
  return { ...acting, id: sub.id, username: sub.name, referredBy: null, balanceKobo: sub.balanceKobo, resellerMarkup };
}
