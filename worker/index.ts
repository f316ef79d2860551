import { routePartykitRequest } from "partyserver";
import { createApp } from "./app";
import type { Env } from "./config";
import { countingD1, newTally, tallyHeaders } from "./lib/d1-metrics";
import { BOOKMARK_HEADER, withD1Session } from "./lib/d1-session";
import { answerWithBodyRead } from "./lib/request-body";
import { d1TallyFor, enableRunMetrics, requestKind, statementObserver } from "./lib/run-metrics";
import { admitSocket, isRoutableRoomPath, refusePlainRequest, routableRooms } from "./rooms/room-gate";
import { runScheduledSweep } from "./scheduled";
import { consumeDeliveries } from "./deliveries";

export { SmsOrderPoller } from "./objects/sms-order-poller";
export { RentalWatcher } from "./objects/rental-watcher";
export { InvoiceWatcher } from "./objects/invoice-watcher";
export { NotificationRoom } from "./rooms/notification-room";

const app = createApp();

export default {
  // Whoever answers (a room, a middleware, a route, the 404), the request's body is read to its end before the answer
  // leaves: workerd resets a connection closed with unread body bytes (lib/request-body.ts, decision 064).
  fetch: (request, env, ctx) => answerWithBodyRead(request, (request) => answer(request, env, ctx)),
  async scheduled(_controller, env, ctx) {
    ctx.waitUntil(runScheduledSweep(env));
  },
  // The delivery queue and its dead-letter queue (worker/deliveries.ts, decision 073).
  async queue(batch, env, ctx) {
    await consumeDeliveries(batch, env, (work) => ctx.waitUntil(work));
  },
} satisfies ExportedHandler<Env>;

async function answer(request: Request, env: Env, ctx: ExecutionContext): Promise<Response> {
  // Only the notification room is routable (worker/rooms/room-gate.ts); any other /parties/* address falls through to
  // the app's one 404 without touching a Durable Object.
  if (isRoutableRoomPath(new URL(request.url).pathname)) {
    const response = await routePartykitRequest(request, routableRooms(env) as Record<string, unknown> & Env, {
      onBeforeConnect: (req, lobby) => admitSocket(req, env, lobby.name),
      onBeforeRequest: () => refusePlainRequest(),
    });
    if (response) return response;
  }
  // The request's D1 runs in a session: replicas may serve it, the customer's bookmark keeps their own writes
  // visible (lib/d1-session.ts); the answer carries the bookmark to send back.
  const session = withD1Session(env, request);
  let response: Response;
  let tally = null;
  if (enableRunMetrics(env)) {
    tally = newTally();
    // The API's D1 use adds up for the rate benchmark (lib/run-metrics.ts); its own /sandbox calls do not.
    const path = new URL(request.url).pathname;
    const sinks = path.startsWith("/api/") ? [tally, d1TallyFor("api"), statementObserver(requestKind(request.method, path))] : [tally];
    response = await app.fetch(request, { ...session.env, DB: countingD1(session.env.DB, ...sinks) }, ctx);
  } else {
    response = await app.fetch(request, session.env, ctx);
  }
  const bookmark = session.bookmark();
  if (!bookmark && !tally) return response;
  const answered = new Response(response.body, response);
  if (bookmark) answered.headers.set(BOOKMARK_HEADER, bookmark);
  if (tally) for (const [name, value] of Object.entries(tallyHeaders(tally))) answered.headers.set(name, value);
  return answered;
}
