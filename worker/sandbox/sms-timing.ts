import { eq } from "drizzle-orm";
import { Hono } from "hono";
import type { AppEnv } from "../app-env";
import { getDb } from "../db/client";
import { smsOrders } from "../db/tables";
import { AppError } from "../lib/errors";
import { readActivation, sandboxDelayMs } from "./sms-activations";

/**
 * For the code-to-screen bench: when the sandbox upstream started holding an order's code. GET /sandbox/sms/orders/:id
 * answers { codeAt } (epoch ms). Sandbox only, like every /sandbox route.
 */
export const smsTimingSandboxRoutes = new Hono<AppEnv>().get("/orders/:id", async (c) => {
  const [order] = await getDb(c.env.DB)
    .select({ upstreamId: smsOrders.upstreamId })
    .from(smsOrders)
    .where(eq(smsOrders.id, c.req.param("id")))
    .limit(1);
  const activation = order?.upstreamId ? await readActivation(c.env, order.upstreamId) : null;
  if (!activation) throw new AppError("NOT_FOUND", "No sandbox activation for that order.");
  return c.json({ codeAt: activation.codeAt ?? activation.createdAt + sandboxDelayMs(c.env) });
});
