import { routePartykitRequest } from "partyserver";
import { createApp } from "./app";
import type { Env } from "./env";
import { countingD1 } from "./lib/d1-metrics";
import { runScheduledSweep } from "./services/sweep";

export { SmsOrderPoller } from "./objects/sms-order-poller";
export { RentalWatcher } from "./objects/rental-watcher";
export { InvoiceWatcher } from "./objects/invoice-watcher";
export { WebhookDelivery } from "./objects/webhook-delivery";
export { NotificationRoom } from "./rooms/notification-room";

const app = createApp();

export default {
  async fetch(request, env, ctx) {
    if (new URL(request.url).pathname.startsWith("/parties/")) {
      const response = await routePartykitRequest(request, env as unknown as Record<string, unknown> & Env);
      if (response) return response;
    }
    if (env.D1_METRICS === "true" && env.APP_ENV !== "production") {
      const counter = { count: 0 };
      const response = await app.fetch(request, { ...env, DB: countingD1(env.DB, counter) }, ctx);
      const counted = new Response(response.body, response);
      counted.headers.set("x-d1-round-trips", String(counter.count));
      return counted;
    }
    return app.fetch(request, env, ctx);
  },
  async scheduled(_controller, env, ctx) {
    ctx.waitUntil(runScheduledSweep(env));
  },
} satisfies ExportedHandler<Env>;
