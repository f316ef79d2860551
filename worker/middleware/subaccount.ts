import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../app-env";
import { getDb } from "../db/client";
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
  const db = getDb(c.env.DB);
  const reseller = await requireReseller(db, c.var.apiCaller.key.userId);
  const spends = c.req.method === "POST" && SPENDING.some((p) => p.test(path));
  const sub = await actingSubaccount(db, c.var.user.id, id, spends);
  // Its prices carry the reseller's markup, the margin going to the acting account (the sub-account's parent).
  const resellerMarkup = await markupForSubaccount(db, reseller.userId, c.var.user.id, reseller.markupBasisPoints);
  // The sub-account's own wallet; the reseller's tier (totalDepositedKobo) and contact details stay.
  c.set("user", { ...c.var.user, id: sub.id, username: sub.name, referredBy: null, balanceKobo: sub.balanceKobo, resellerMarkup });
  await next();
});
