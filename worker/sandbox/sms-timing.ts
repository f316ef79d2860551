import { eq } from "drizzle-orm";
import { Hono } from "hono";
import type { AppEnv } from "../app-env";
import { getDb } from "../db/client";
import { smsOrders } from "../db/tables";
import { AppError } from "../lib/errors";
import { readActivation, sandboxCode, sandboxDelayMs, sandboxSmsText } from "./sms-activations";

/**
 * For the code-to-screen bench: when the sandbox upstream started holding an order's code. GET /sandbox/sms/orders/:id
 * answers { codeAt } (epoch ms). POST /sandbox/sms/orders/:id/push sends DaisySMS's incoming-SMS webhook for the order's
 * activation to our own /api/webhooks/sms/swift, as DaisySMS does when the SMS lands (the bench calls it at codeAt to
 * measure code-to-screen with push). Sandbox only, like every /sandbox route.
 */
async function activationOf(c: { env: AppEnv["Bindings"]; req: { param(name: "id"): string } }) {
  const [order] = await getDb(c.env.DB)
    .select({ upstreamId: smsOrders.upstreamId, serviceId: smsOrders.serviceId })
    .from(smsOrders)
    .where(eq(smsOrders.id, c.req.param("id")))
    .limit(1);
  const activation = order?.upstreamId ? await readActivation(c.env, order.upstreamId) : null;
  if (!activation || !order) throw new AppError("NOT_FOUND", "No sandbox activation for that order.");
  return { activation, serviceId: order.serviceId };
}

export const smsTimingSandboxRoutes = new Hono<AppEnv>()
  .get("/orders/:id", async (c) => {
    const { activation } = await activationOf(c);
    return c.json({ codeAt: activation.codeAt ?? activation.createdAt + sandboxDelayMs(c.env) });
  })
  .post("/orders/:id/push", async (c) => {
    const { activation, serviceId } = await activationOf(c);
    const code = sandboxCode(activation.id);
    // The fields DaisySMS's webhook carries (https://daisysms.com/docs/api, webhooks; SMS-Activate sends the same).
    const body = {
      activationId: Number(activation.id),
      messageId: Number(activation.id) + 1,
      service: serviceId,
      text: sandboxSmsText(activation.serviceName, code),
      code,
      country: 187,
      receivedAt: new Date().toISOString().slice(0, 19).replace("T", " "),
    };
    const response = await c.var.loopback(
      new Request(new URL("/api/webhooks/sms/swift", c.var.config.publicUrl), { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
    );
    return c.json({ webhook_status: response.status, ...((await response.json()) as object) });
  });
