import { WebSocket as ReconnectingWebSocket } from "partysocket";
import { json, signedIn } from "../api/client";
import type { RealtimeToken } from "../../schema/answers";

export type RealtimeTokenResponse = RealtimeToken;

export interface RealtimeHandlers {
  onMessage(data: unknown): void;
  /** The socket opened; `reconnected` is true when an earlier socket of this connection had been open. */
  onOpen(reconnected: boolean): void;
  /** An open socket went down (not called for a close we asked for). */
  onDown(): void;
}

export interface RealtimeOptions {
  /** Injected in tests; the browser's WebSocket otherwise. */
  WebSocket?: unknown;
  fetchToken?: () => Promise<RealtimeTokenResponse>;
  /** Base of the reconnect back-off; jittered per tab so a server restart is not met by every tab at once. */
  minReconnectionDelay?: number;
  maxReconnectionDelay?: number;
}

export const fetchRealtimeToken = () => signedIn["realtime-token"].$get().then(json);

/** ws(s)://<this host><room path>?token=..., on the page's own origin (the worker serves the rooms). */
export function socketUrl(location: Pick<Location, "protocol" | "host">, res: RealtimeTokenResponse): string {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  return `${scheme}://${location.host}${res.url}?token=${encodeURIComponent(res.token)}`;
}

export interface RealtimeConnection {
  close(): void;
}

/**
 * This tab's one socket to its notification room. Every (re)connect asks the API for a fresh 5-minute token first, so a
 * socket never reuses a token that may have expired; a failed attempt (network, 401) retries with growing back-off.
 * A 401 on the token call also clears the session (api/client.ts), which unmounts the bridge and closes this.
 */
export function connectRealtime(handlers: RealtimeHandlers, options: RealtimeOptions = {}): RealtimeConnection {
  const fetchToken = options.fetchToken ?? fetchRealtimeToken;
  let everOpen = false;
  let open = false;
  let closedByUs = false;

  const socket = new ReconnectingWebSocket(async () => socketUrl(window.location, await fetchToken()), undefined, {
    WebSocket: options.WebSocket,
    minReconnectionDelay: (options.minReconnectionDelay ?? 1000) * (1 + Math.random()),
    maxReconnectionDelay: options.maxReconnectionDelay ?? 30_000,
    reconnectionDelayGrowFactor: 1.5,
    connectionTimeout: 10_000,
  });

  socket.addEventListener("open", () => {
    open = true;
    handlers.onOpen(everOpen);
    everOpen = true;
  });
  socket.addEventListener("message", (event) => handlers.onMessage(event.data));
  socket.addEventListener("close", () => {
    if (!open || closedByUs) return;
    open = false;
    handlers.onDown();
  });

  return {
    close() {
      closedByUs = true;
      socket.close(1000, "signed out");
    },
  };
}
