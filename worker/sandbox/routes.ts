import { Hono } from "hono";
import type { AppEnv } from "../app-env";
import { AppError } from "../lib/errors";
import { metricsSandboxRoutes } from "./metrics";
import { nowPaymentsSandboxRoutes } from "./nowpayments";
import { outboxSandboxRoutes } from "./outbox";
import { settingsSandboxRoutes } from "./settings";
import { smsTimingSandboxRoutes } from "./sms-timing";
import { squadSandboxRoutes } from "./squad";
import { squadTransferSandboxRoutes, squadTransferSimulator } from "./squad-transfers";
import { squadPayoutSandboxRoutes, squadPayoutSimulator } from "./squad-payouts";
import { upstreamBalanceSandboxRoutes } from "./upstream-balances";
import { telegramBotApiSimulator } from "./telegram-bot-api";
import { telegramChatSandboxRoutes } from "./telegram-chat";
import { webPushSandboxRoutes } from "./web-push-service";

/** Sandbox-only routes (simulated checkout pages, scripted provider events). They do not exist in live mode. */
export const sandboxRoutes = new Hono<AppEnv>();
sandboxRoutes.use("*", async (c, next) => {
  if (c.var.config.providers !== "sandbox") throw new AppError("NOT_FOUND", "Not found.");
  await next();
});
sandboxRoutes.route("/squad", squadSandboxRoutes);
sandboxRoutes.route("/squad-transfers", squadTransferSandboxRoutes);
sandboxRoutes.route("/squad-payouts", squadPayoutSandboxRoutes);
// Squad's virtual-account API over HTTP too (the adapter reaches it in-process): the operator CLI's
// reconcile-transfers reads the local sandbox's transaction list through it. Keyed like Squad: 401/403 without the key.
sandboxRoutes.all("/squad-api/virtual-account/*", (c) => squadTransferSimulator.fetch(c.req.raw, c.env));
// Squad's Transfer API over HTTP too (issue 45): the operator CLI's reconcile-payouts reads the local payout list here.
sandboxRoutes.all("/squad-api/payout/*", (c) => squadPayoutSimulator.fetch(c.req.raw, c.env));
sandboxRoutes.route("/nowpayments", nowPaymentsSandboxRoutes);
sandboxRoutes.route("/settings", settingsSandboxRoutes);
sandboxRoutes.route("/sms", smsTimingSandboxRoutes);
sandboxRoutes.route("/upstreams", upstreamBalanceSandboxRoutes);
sandboxRoutes.route("/metrics", metricsSandboxRoutes);
// Issue 48: the Bot API simulator over HTTP too (the adapter reaches it in-process; the operator CLI's
// telegram-set-webhook calls it here), and the chat page a developer talks to the bot in.
sandboxRoutes.all("/telegram-api/*", (c) => telegramBotApiSimulator.fetch(c.req.raw, c.env));
sandboxRoutes.route("/telegram", telegramChatSandboxRoutes);
// The sandbox push service (issue 47): subscribe a sandbox browser, expire it, and see what each device would show.
sandboxRoutes.route("/web-push", webPushSandboxRoutes);
sandboxRoutes.route("/", outboxSandboxRoutes);
