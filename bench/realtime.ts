import { pathToFileURL } from "node:url";
// @ts-expect-error ws ships no types and @types/ws is not installed; the few members used are typed below.
import WsImpl from "ws";
import { register } from "./api";
import { startServer } from "./server";

/**
 * Realtime figures against a running local server: how long a tab takes to join its room (token call + upgrade), and
 * how long a credited card payment takes to reach an open socket, measured from the start of the sandbox completion
 * request (which delivers Squad's signed webhook) to the payment.credited frame.
 * Run alone: `npx tsx bench/realtime.ts` (starts the product on BENCH_PORT, default 8815), or call realtimeFigures(url).
 */

/** The part of the `ws` package's client used here (Node 20 has no global WebSocket). */
interface WebSocket {
  once(event: "open", cb: () => void): void;
  once(event: "error", cb: (err: Error) => void): void;
  once(event: "unexpected-response", cb: (req: unknown, res: { statusCode?: number }) => void): void;
  on(event: "message", cb: (data: unknown) => void): void;
  off(event: "message", cb: (data: unknown) => void): void;
  close(): void;
}
const WebSocket = WsImpl as new (url: string, protocols: string[], options: { origin: string }) => WebSocket;

export async function openRoom(url: string, token: string): Promise<{ ws: WebSocket; joinMs: number }> {
  const t0 = performance.now();
  const res = await fetch(`${url}/api/realtime-token`, { headers: { authorization: `Bearer ${token}` } });
  if (!res.ok) throw new Error(`realtime-token failed: ${res.status}`);
  const room = (await res.json()) as { token: string; url: string };
  // The room admits only the app's own Origin (PUBLIC_URL, which the bench server is started with: issue 33), as a tab sends it.
  const ws = new WebSocket(`${url.replace(/^http/, "ws")}${room.url}?token=${encodeURIComponent(room.token)}`, [], { origin: url });
  await new Promise<void>((resolve, reject) => {
    ws.once("open", () => resolve());
    ws.once("error", reject);
    ws.once("unexpected-response", (_req, r) => reject(new Error(`upgrade refused: ${r.statusCode}`)));
  });
  return { ws, joinMs: performance.now() - t0 };
}

export function nextFrame(ws: WebSocket, match: (text: string) => boolean, timeoutMs = 15_000): Promise<number> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      ws.off("message", onMessage);
      reject(new Error("no realtime frame within the timeout"));
    }, timeoutMs);
    const onMessage = (data: unknown) => {
      if (!match(String(data))) return;
      clearTimeout(timer);
      ws.off("message", onMessage);
      resolve(performance.now());
    };
    ws.on("message", onMessage);
  });
}

export const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;

export async function realtimeFigures(url: string, samples = 10) {
  const user = await register(url, "rt");
  const headers = { "content-type": "application/json", authorization: `Bearer ${user.token}` };
  const joins: number[] = [];
  const pushes: number[] = [];
  const { ws, joinMs } = await openRoom(url, user.token);
  joins.push(joinMs);
  for (let i = 0; i < samples; i++) {
    const init = await fetch(`${url}/api/initialize-transaction`, { method: "POST", headers, body: JSON.stringify({ amount: 1000, currency: "NGN" }) });
    if (!init.ok) throw new Error(`initialize failed: ${init.status}`);
    const ref = ((await init.json()) as { data: { data: { transaction_ref: string } } }).data.data.transaction_ref;
    const arrived = nextFrame(ws, (text) => text.includes('"payment.credited"') && text.includes(ref));
    const t0 = performance.now();
    const done = await fetch(`${url}/sandbox/squad/${encodeURIComponent(ref)}/complete`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ outcome: "success" }),
    });
    if (!done.ok) throw new Error(`sandbox completion failed: ${done.status}`);
    pushes.push((await arrived) - t0);
  }
  ws.close();
  for (let i = 0; i < Math.min(samples, 5); i++) {
    const extra = await openRoom(url, user.token);
    joins.push(extra.joinMs);
    extra.ws.close();
  }
  pushes.sort((a, b) => a - b);
  joins.sort((a, b) => a - b);
  return {
    joinP50Ms: Math.round(percentile(joins, 0.5)),
    pushP50Ms: Math.round(percentile(pushes, 0.5)),
    pushP95Ms: Math.round(percentile(pushes, 0.95)),
    samples,
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const port = Number(process.env.BENCH_PORT ?? 8815);
  const server = await startServer(port);
  try {
    const figures = await realtimeFigures(server.url, Number(process.env.BENCH_SAMPLES ?? 10));
    console.log(
      `realtime: join (token + upgrade) p50 ${figures.joinP50Ms} ms; card payment -> socket p50 ${figures.pushP50Ms} ms, ` +
        `p95 ${figures.pushP95Ms} ms over ${figures.samples} payments`,
    );
  } finally {
    server.stop();
  }
}
