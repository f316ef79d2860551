import { routePartykitRequest } from "partyserver";
import { createApp } from "./app";
import type { Env } from "./config";
import { countingD1 } from "./lib/d1-metrics";
import { admitSocket, isRoutableRoomPath, refusePlainRequest, routableRooms } from "./rooms/room-gate";
import { runScheduledSweep } from "./services/sweep";

export { SmsOrderPoller } from "./objects/sms-order-poller";
export { RentalWatcher } from "./objects/rental-watcher";
export { InvoiceWatcher } from "./objects/invoice-watcher";
export { WebhookDelivery } from "./objects/webhook-delivery";
export { NotificationRoom } from "./rooms/notification-room";

const app = createApp();

export default {
  async fetch(request, env, ctx) {
    // Only the notification room is routable (worker/rooms/room-gate.ts); any other /parties/* address falls through to
    // the app's one 404 without touching a Durable Object.
    if (isRoutableRoomPath(new URL(request.url).pathname)) {
      const response = await routePartykitRequest(request, routableRooms(env) as Record<string, unknown> & Env, {
        onBeforeConnect: (req, lobby) => admitSocket(req, env, lobby.name),
        onBeforeRequest: () => refusePlainRequest(),
      });
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
