import type { ErrorCode } from "../../schema/errors";
import { configFor, type Env } from "../config";
import { errorBody } from "../lib/errors";
import { memoizeByObject } from "../lib/cache";
import { verifyToken } from "../lib/jwt";

/**
 * Which /parties/* addresses reach a Durable Object, decided in the worker before any object is touched.
 *
 * partyserver forwards /parties/<party>/<name> to whichever binding matches <party>, creating the object on first use:
 * left alone, /parties/sms-order/x reached the SMS poller (a 500 on a stranger's request, and an object created for
 * them). Only the notification room is routable (anything else falls through to the app's one 404), and a request for
 * it that cannot be admitted (not a socket, no or a bad token, another user's room) is refused here, so a stranger
 * never creates a room either. The room repeats these checks and adds the session and socket-count checks.
 */
const ROOM_PATH = /^\/parties\/notification-room\/[^/]+$/;

export function isRoutableRoomPath(pathname: string): boolean {
  return ROOM_PATH.test(pathname);
}

/** The bindings partyserver may route to: the notification room's only (partyserver maps every binding it is given). */
export const routableRooms: (env: Env) => Record<string, unknown> = memoizeByObject((env: Env) => ({ NotificationRoom: env.NotificationRoom }));

function refuse(status: 401 | 403 | 404, code: ErrorCode, message: string): Response {
  return new Response(JSON.stringify(errorBody(code, message)), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" },
  });
}

/** Plain HTTP never reaches a room (the room would refuse it the same way). */
export function refusePlainRequest(): Response {
  return refuse(403, "FORBIDDEN", "Only the server can publish to a realtime room; this address accepts realtime connections only.");
}

/** A socket reaches the room only with a realtime token for this very room; otherwise the same answers the room gives. */
export async function admitSocket(request: Request, env: Env, roomName: string): Promise<Response | undefined> {
  const token = new URL(request.url).searchParams.get("token");
  if (!token) return refuse(401, "UNAUTHORIZED", "A realtime token is required.");
  const claims = await verifyToken(configFor(env).jwtSecret, "realtime", token);
  if (!claims) return refuse(401, "UNAUTHORIZED", "The realtime token is invalid or has expired.");
  if (claims.userId !== roomName) return refuse(404, "NOT_FOUND", "Not found.");
  return refuseForeignOrigin(request, env);
}

export const FOREIGN_ORIGIN_MESSAGE = "Realtime connections are accepted only from this site's own pages.";

/**
 * The WebSocket handshake's Origin (issue 33, ASVS 5.0 4.4.2): only our own (PUBLIC_URL, never the Host header) or one
 * listed in CORS_ORIGINS, the same origins app.ts lets read the API. Browsers always send Origin on a socket upgrade
 * (RFC 6455 section 4.1), so a missing one is refused too: a page on another site cannot ride a customer's realtime
 * token (cross-site WebSocket hijacking). A non-browser client can write any Origin; the token still decides for it.
 * Asked after the token checks, so a request without a token still learns only that it needs one.
 */
export function refuseForeignOrigin(request: Request, env: Env): Response | undefined {
  return isAllowedOrigin(request.headers.get("origin"), env) ? undefined : refuse(403, "FORBIDDEN", FOREIGN_ORIGIN_MESSAGE);
}

export function isAllowedOrigin(origin: string | null, env: Env): boolean {
  if (!origin) return false;
  const extra = (env.CORS_ORIGINS ?? "").split(",").map((s) => s.trim()).filter(Boolean);
  return origin === configFor(env).publicUrl || extra.includes(origin);
}
