import * as wallet from "../contract/wallet";
import { getDb } from "../db/client";
import { AppError } from "../lib/errors";
import { requireAuth } from "../middleware/auth";
import { activeTransfer, openStaticAccount, startTransfer, staticAccountView, transferView } from "../services/funding";
import { paymentDepsOf } from "./flow-deps";
import { guarded, routeApp, type RouteApp } from "./route-app";

/**
 * Funding by bank transfer (issue 31): a dynamic account per payment, followed live (the notification's credit is
 * pushed through the customer's room; this read is for a reload), and a permanent account per customer. Signed-in only;
 * another customer's payment is 404.
 */
export const transferRoutes: RouteApp = routeApp()
  .openapi(guarded(wallet.startTransfer, requireAuth), async (c) =>
    c.json(await startTransfer(paymentDepsOf(c), c.var.user, c.req.valid("json").amount)),
  )
  .openapi(guarded(wallet.activeTransfer, requireAuth), async (c) => c.json({ data: await activeTransfer(getDb(c.env.DB), c.var.user.id, Date.now()) }))
  .openapi(guarded(wallet.staticAccount, requireAuth), async (c) => c.json({ data: await staticAccountView(getDb(c.env.DB), c.var.user.id) }))
  .openapi(guarded(wallet.openStaticAccount, requireAuth), async (c) =>
    c.json({ data: await openStaticAccount(paymentDepsOf(c), c.var.user, c.req.valid("json")) }),
  )
  .openapi(guarded(wallet.transfer, requireAuth), async (c) => {
    const view = await transferView(getDb(c.env.DB), c.var.user.id, c.req.valid("param").ref, Date.now());
    if (!view) throw new AppError("NOT_FOUND", "Transfer not found.");
    return c.json(view);
  });
