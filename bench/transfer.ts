import { pathToFileURL } from "node:url";
import { register } from "./api";
import { nextFrame, openRoom, percentile } from "./realtime";
import { startServer } from "./server";

/**
 * Issue 31's figure: a bank transfer, from Squad's notification arriving to the credit on the customer's screen. Per
 * sample: a dynamic account is opened (POST /api/transfers); the clock starts when the sandbox's "send a transfer" request
 * starts (it records the transfer at the simulated Squad and posts Squad's signed notification to /api/webhooks/squad,
 * which re-queries Squad and credits) and stops when the payment.credited frame reaches the open socket: what a Fund
 * Wallet tab receives to say "Credited ₦X". Target: p95 <= 2,000 ms locally (a figure, not a timed test).
 * Run alone: `npx tsx bench/transfer.ts` (starts the product on BENCH_PORT, default 8815), or call transferFigures(url).
 */
export async function transferFigures(url: string, samples = 20) {
  const user = await register(url, "transfer");
  const headers = { "content-type": "application/json", authorization: `Bearer ${user.token}` };
  const { ws } = await openRoom(url, user.token);
  const credited: number[] = [];
  try {
    for (let i = 0; i < samples; i++) {
      const start = await fetch(`${url}/api/transfers`, { method: "POST", headers, body: JSON.stringify({ amount: 1000 }) });
      if (!start.ok) throw new Error(`transfer start failed: ${start.status} ${await start.text()}`);
      const transfer = (await start.json()) as { ref: string; account_number: string };
      const arrived = nextFrame(ws, (text) => text.includes('"payment.credited"') && text.includes(transfer.ref));
      const t0 = performance.now();
      const sent = await fetch(`${url}/sandbox/squad-transfers/send`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ account_number: transfer.account_number, kind: "exact" }),
      });
      if (!sent.ok) throw new Error(`sandbox transfer failed: ${sent.status}`);
      credited.push((await arrived) - t0);
    }
  } finally {
    ws.close();
  }
  credited.sort((a, b) => a - b);
  return { creditedP50Ms: Math.round(percentile(credited, 0.5)), creditedP95Ms: Math.round(percentile(credited, 0.95)), samples };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const port = Number(process.env.BENCH_PORT ?? 8815);
  const server = await startServer(port);
  try {
    const f = await transferFigures(server.url, Number(process.env.BENCH_SAMPLES ?? 20));
    const verdict = f.creditedP95Ms <= 2000 ? "met" : "MISSED";
    console.log(`bank transfer: notification -> credited on the socket p50 ${f.creditedP50Ms} ms, p95 ${f.creditedP95Ms} ms over ${f.samples} transfers (target p95 <= 2000 ms: ${verdict})`);
  } finally {
    server.stop();
  }
}
