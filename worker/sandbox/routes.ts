import { Hono } from "hono";
import type { AppEnv } from "../app-env";
import { AppError } from "../lib/errors";
import { nowPaymentsSandboxRoutes } from "./nowpayments";
import { outboxSandboxRoutes } from "./outbox";
import { settingsSandboxRoutes } from "./settings";
import { smsTimingSandboxRoutes } from "./sms-timing";
import { squadSandboxRoutes } from "./squad";
import { squadTransferSandboxRoutes } from "./squad-transfers";
import { upstreamBalanceSandboxRoutes } from "./upstream-balances";

/** Sandbox-only routes (simulated checkout pages, scripted provider events). They do not exist in live mode. */
export const sandboxRoutes = new Hono<AppEnv>();
sandboxRoutes.use("*", async (c, next) => {
  if (c.var.config.providers !== "sandbox") throw new AppError("NOT_FOUND", "Not found.");
  await next();
});
sandboxRoutes.route("/squad", squadSandboxRoutes);
sandboxRoutes.route("/squad-transfers", squadTransferSandboxRoutes);
sandboxRoutes.route("/nowpayments", nowPaymentsSandboxRoutes);
sandboxRoutes.route("/settings", settingsSandboxRoutes);
sandboxRoutes.route("/sms", smsTimingSandboxRoutes);
sandboxRoutes.route("/upstreams", upstreamBalanceSandboxRoutes);
sandboxRoutes.route("/", outboxSandboxRoutes);
