import * as contract from "../contract/withdrawals";
import { getDb } from "../db/client";
import { requireAuth } from "../middleware/auth";
import { listOwnWithdrawals, requestWithdrawal, savePayoutAccount, sweepWithdrawals, withdrawableView, withdrawalView } from "../services/funding";
import { Hono } from "hono";
import type { AppEnv } from "../app-env";
import { AppError } from "../lib/errors";
import { nowOf, paymentDepsOf, sessionOf } from "./flow-deps";
import { guarded, routeApp, type RouteApp } from "./route-app";

/**
 * Cash out (issue 45, docs/decisions/071): the payout account, what may be withdrawn, a withdrawal followed live (its
 * read re-queries Squad while it is in flight). Signed-in only; the user and session come from the token.
 */
export const withdrawalRoutes: RouteApp = routeApp()
  .openapi(guarded(contract.withdrawable, requireAuth), async (c) => c.json(await withdrawableView(getDb(c.env.DB), c.var.user.id, nowOf(c))))
  .openapi(guarded(contract.savePayoutAccount, requireAuth), async (c) =>
    c.json({ data: await savePayoutAccount(paymentDepsOf(c), sessionOf(c), c.req.valid("json")) }),
  )
  .openapi(guarded(contract.withdraw, requireAuth), async (c) => c.json(await requestWithdrawal(paymentDepsOf(c), { session: sessionOf(c) }, c.req.valid("json").amount)))
  .openapi(guarded(contract.withdrawals, requireAuth), async (c) => c.json({ data: await listOwnWithdrawals(getDb(c.env.DB), c.var.user.id) }))
  .openapi(guarded(contract.withdrawal, requireAuth), async (c) => c.json(await withdrawalView(paymentDepsOf(c), c.var.user.id, c.req.valid("param").id)));

/**
 * Sandbox only (mounted at /sandbox/squad-payouts/sweep): the withdrawal part of the cron sweep, now, as production's
 * cron runs it every 5 minutes (sends held ones, re-queries those in flight, and paid ones for a reversal). The journey
 * of a transfer reversed "a day later" asks for it instead of waiting for the next run. Here and not in worker/sandbox/:
 * the simulators there are what the payment adapters reach, and the services must not be imported back into them.
 */
export const withdrawalSweepSandboxRoute = new Hono<AppEnv>().post("/", async (c) => {
  if (c.var.config.providers !== "sandbox") throw new AppError("NOT_FOUND", "Not found.");
  const result = await sweepWithdrawals(paymentDepsOf(c));
  return c.json(result);
});
