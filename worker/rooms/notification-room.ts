import { Server, type Connection, type ConnectionContext } from "partyserver";
import type { ErrorCode } from "../../schema/errors";
import { realtimeMessageSchema, type RealtimeMessage } from "../../schema/realtime";
import { errorBody } from "../lib/errors";
import { verifyToken } from "../lib/jwt";
import { log } from "../lib/log";
import { getDb } from "../db/client";
import { configFor, type Env } from "../config";
import { liveSessionIds, loadSessionUser } from "../services/accounts";
import { refuseForeignOrigin } from "./room-gate";

/** Set by the room itself after the token check (any client-sent value is overwritten), read when tagging the socket. */
const SESSION_HEADER = "x-realtime-session";
const sessionTag = (sessionId: string) => `session:${sessionId}`;

/** Tabs one customer may hold open at once; beyond this a socket is refused (a runaway client cannot pile them up). */
export const MAX_SOCKETS_PER_USER = 20;

/** Close codes a client can tell apart: the browser gets a fresh token on its next connect attempt. */
export const CLOSE_SESSION_ENDED = 4001;

const NOT_A_SOCKET = "Only the server can publish to a realtime room; this address accepts realtime connections only.";

function refuse(status: 401 | 403 | 404 | 429, code: ErrorCode, message: string): Response {
  return new Response(JSON.stringify(errorBody(code, message)), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" },
  });
}

/**
 * One room per user: /parties/notification-room/<userId>. The room is a relay with no state of its own: a message that
 * finds no socket is simply dropped, because every screen can read the truth from the API (a lost message costs latency).
 *
 * Who may listen: a socket opens only with a short-lived realtime token (audience 'realtime') whose subject is this
 * room's name and whose session is still live. Who may speak: only server code, through the publish() RPC method
 * (worker/services/notify.ts). Messages from sockets are dropped unread and plain HTTP to the room is refused, so
 * nothing a browser sends can reach another browser.
 *
 * Who stops listening: every socket is tagged with the session that opened it. A revocation (services/sessions.ts
 * revokeSessions) asks the room to close the sockets of sessions no longer live, and publish() checks the sessions of
 * its sockets in D1 before sending, so a revoked or expired session never receives a message, even if that close
 * request was lost.
 */
export class NotificationRoom extends Server<Env> {
  // Hibernation: an idle signed-in tab holds a socket without keeping the object in memory.
  static override options = { hibernate: true };

  override async fetch(request: Request): Promise<Response> {
    if (request.headers.get("Upgrade")?.toLowerCase() !== "websocket") {
      return refuse(403, "FORBIDDEN", NOT_A_SOCKET);
    }
    let roomUserId: string;
    let sessionId: string;
    try {
      roomUserId = this.name;
      const token = new URL(request.url).searchParams.get("token");
      if (!token) return refuse(401, "UNAUTHORIZED", "A realtime token is required.");
      const claims = await verifyToken(configFor(this.env).jwtSecret, "realtime", token);
      if (!claims) return refuse(401, "UNAUTHORIZED", "The realtime token is invalid or has expired.");
      // Another account's room answers like any resource of another user: 404, never a hint that it is someone's.
      if (claims.userId !== roomUserId) return refuse(404, "NOT_FOUND", "Not found.");
      // The gate checked the Origin already (room-gate.ts); repeated so the room never relies on its caller.
      const foreign = refuseForeignOrigin(request, this.env);
      if (foreign) return foreign;
      // A token outlives a logout by up to 5 minutes; the session check makes logout end realtime access at once.
      const user = await loadSessionUser(this.env.DB, claims.userId, claims.sessionId, Date.now());
      if (!user) return refuse(401, "UNAUTHORIZED", "Your session has expired. Please log in again.");
      sessionId = claims.sessionId;
      if ([...this.getConnections()].length >= MAX_SOCKETS_PER_USER) {
        return refuse(429, "RATE_LIMITED", "Too many open realtime connections. Close some tabs and try again.");
      }
    } catch (err) {
      log("error", "realtime connect check failed", { error: err instanceof Error ? err.message : String(err) });
      return refuse(401, "UNAUTHORIZED", "The realtime connection could not be verified.");
    }
    const checked = new Request(request);
    checked.headers.set(SESSION_HEADER, sessionId);
    return super.fetch(checked);
  }

  override getConnectionTags(_connection: Connection, ctx: ConnectionContext): string[] {
    const sessionId = ctx.request.headers.get(SESSION_HEADER);
    return sessionId ? [sessionTag(sessionId)] : [];
  }

  /** Sockets only listen. Whatever a client sends is dropped: never relayed, never stored. */
  override onMessage(): void {}

  /** Unreachable through fetch() above; kept so partyserver's default (a 404 with a console warning) never answers. */
  override onRequest(): Response {
    return refuse(403, "FORBIDDEN", NOT_A_SOCKET);
  }

  /**
   * Server-only (RPC): sends one message to every open tab of this user whose session is still live. Validated again so
   * a bad shape never ships. The liveness check is one D1 read, made only when a socket is open.
   */
  async publish(message: RealtimeMessage): Promise<number> {
    const text = JSON.stringify(realtimeMessageSchema.parse(message));
    let delivered = 0;
    for (const connection of await this.liveConnections()) {
      try {
        connection.send(text);
        delivered += 1;
      } catch {
        // A socket closing right now: its tab reconnects and reads the truth from the API.
      }
    }
    return delivered;
  }

  /** Server-only (RPC): closes the sockets of every session that was revoked or expired. Returns how many it closed. */
  async closeRevokedSessions(): Promise<number> {
    const open = [...this.getConnections()];
    const live = await this.liveConnections();
    return open.length - live.length;
  }

  /** The open sockets whose session is live; the others are closed on the way (close code 4001). */
  private async liveConnections(): Promise<Connection[]> {
    const open = [...this.getConnections()];
    if (open.length === 0) return [];
    const live = await liveSessionIds(getDb(this.env.DB), [...new Set(open.map(sessionOf).filter((id) => id !== null))], Date.now());
    const keep: Connection[] = [];
    for (const connection of open) {
      const sessionId = sessionOf(connection);
      if (sessionId && live.has(sessionId)) {
        keep.push(connection);
        continue;
      }
      try {
        connection.close(CLOSE_SESSION_ENDED, "Session ended");
      } catch {
        // Already closing.
      }
    }
    return keep;
  }
}

function sessionOf(connection: Connection): string | null {
  const tag = connection.tags.find((t) => t.startsWith("session:"));
  return tag ? tag.slice("session:".length) : null;
}
