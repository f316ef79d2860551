import { Hono } from "hono";
import { z } from "zod";
import { staticAccountSchema, startTransferSchema } from "../../schema/transfers";
import type { AppEnv } from "../app-env";
import { getDb } from "../db/client";
import { AppError } from "../lib/errors";
import { validate } from "../lib/validate";
import { requireAuth } from "../middleware/auth";
import { activeTransfer, openStaticAccount, startTransfer, staticAccountView, transferView } from "../services/funding";
import { paymentDepsOf } from "./flow-deps";

/**
 * Funding by bank transfer (issue 31): a dynamic account per payment, followed live (the notification's credit is
 * pushed through the customer's room; this read is for a reload), and a permanent account per customer. Signed-in only;
 * another customer's payment is 404.
 */
export const transferRoutes = new Hono<AppEnv>()
  .post("/transfers", requireAuth, validate("json", startTransferSchema), async (c) =>
    c.json(await startTransfer(paymentDepsOf(c), c.var.user, c.req.valid("json").amount)),
  )
  .get("/transfers/active", requireAuth, async (c) => c.json({ data: await activeTransfer(getDb(c.env.DB), c.var.user.id, Date.now()) }))
  .get("/transfers/static-account", requireAuth, async (c) => c.json({ data: await staticAccountView(getDb(c.env.DB), c.var.user.id) }))
  .post("/transfers/static-account", requireAuth, validate("json", staticAccountSchema), async (c) =>
    c.json({ data: await openStaticAccount(paymentDepsOf(c), c.var.user, c.req.valid("json")) }),
  )
  .get("/transfers/:ref", requireAuth, validate("param", z.object({ ref: z.string().min(1).max(80) })), async (c) => {
    const view = await transferView(getDb(c.env.DB), c.var.user.id, c.req.valid("param").ref, Date.now());
    if (!view) throw new AppError("NOT_FOUND", "Transfer not found.");
    return c.json(view);
  });
