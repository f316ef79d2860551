import * as content from "../contract/content";
import { signToken } from "../lib/jwt";
import { requireAuth } from "../middleware/auth";
import { guarded, routeApp, type RouteApp } from "./route-app";

export const realtimeRoutes: RouteApp = routeApp()
  /**
   * A short-lived token (5 minutes, audience 'realtime') that opens this user's notification room and nothing else.
   * The browser asks for a fresh one on every (re)connect, so a token copied out of a socket URL is soon worthless.
   */
  .openapi(guarded(content.realtimeToken, requireAuth), async (c) => {
    const user = c.var.user;
    const token = await signToken(c.var.config.jwtSecret, "realtime", { userId: user.id, sessionId: c.var.sessionId });
    c.header("Cache-Control", "no-store");
    return c.json({ token, url: `/parties/notification-room/${encodeURIComponent(user.id)}` });
  });
