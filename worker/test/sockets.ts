import { env, exports } from "cloudflare:workers";
import { afterEach, expect } from "vitest";
import type { RealtimeMessage } from "../../schema/realtime";
import { signToken } from "../lib/jwt";
import type { ReplyBody, TestUser } from "./helpers";

/** Realtime test helpers: a browser tab's socket on the notification room, opened through the worker. */

const secret = () => new TextEncoder().encode(env.JWT_SECRET!);
export const roomPath = (userId: string) => `/parties/notification-room/${userId}`;

export function workerFetch(path: string, init: RequestInit = {}) {
  return (exports as unknown as { default: Fetcher }).default.fetch(new Request(`http://127.0.0.1:8787${path}`, init));
}

/** A browser tab's socket, opened through the worker exactly as a browser opens it, with its messages queued in order. */
export interface TestSocket {
  ws: WebSocket;
  /** The next message this socket receives (in arrival order). */
  next(): Promise<RealtimeMessage>;
  closed: Promise<{ code: number; reason: string }>;
}
const openSockets: WebSocket[] = [];

/** Our own origin, PUBLIC_URL in vitest.config.ts: a browser tab of the app sends it with every socket upgrade. */
export const APP_ORIGIN = "http://127.0.0.1:8787";

export async function connect(path: string, origin: string | null = APP_ORIGIN): Promise<{ status: number; body: ReplyBody; socket?: TestSocket }> {
  const res = await workerFetch(path, { headers: origin === null ? { Upgrade: "websocket" } : { Upgrade: "websocket", Origin: origin } });
  if (!res.webSocket) {
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  }
  const ws = res.webSocket;
  ws.accept();
  openSockets.push(ws);
  const queue: RealtimeMessage[] = [];
  const waiting: ((m: RealtimeMessage) => void)[] = [];
  ws.addEventListener("message", (event) => {
    const message = JSON.parse(String(event.data)) as RealtimeMessage;
    const waiter = waiting.shift();
    if (waiter) waiter(message);
    else queue.push(message);
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.addEventListener("close", (event) => resolve({ code: event.code, reason: event.reason })),
  );
  const next = () => {
    const queued = queue.shift();
    return queued ? Promise.resolve(queued) : new Promise<RealtimeMessage>((resolve) => waiting.push(resolve));
  };
  return { status: res.status, body: null, socket: { ws, next, closed } };
}

export async function realtimeTokenFor(user: TestUser): Promise<string> {
  return signToken(secret(), "realtime", { userId: user.id, sessionId: user.sessionId });
}

export async function joinOwnRoom(user: TestUser): Promise<TestSocket> {
  const { status, socket } = await connect(`${roomPath(user.id)}?token=${await realtimeTokenFor(user)}`);
  expect(status).toBe(101);
  return socket!;
}

afterEach(() => {
  for (const ws of openSockets.splice(0)) {
    try {
      ws.close(1000, "test done");
    } catch {
      // already closed by the server
    }
  }
});

/** Every message a socket receives from now on (to prove a revoked one received nothing). */
export function collect(socket: TestSocket): RealtimeMessage[] {
  const received: RealtimeMessage[] = [];
  socket.ws.addEventListener("message", (event) => received.push(JSON.parse(String(event.data)) as RealtimeMessage));
  return received;
}
