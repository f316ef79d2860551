import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { runRate } from "./rate-core";
import { startServer } from "./server";

/**
 * `npm run bench:rate` (issue 30): the constant-rate benchmark against its own local server (as `npm
 * start` runs it, sandbox providers, a fresh database under .wrangler/bench-<port>, D1_METRICS=true so the server
 * counts what it spends). What it does and prints: bench/rate-core.ts; how to read it: bench/README.md, docs/SCALE.md.
 *
 *   npm run bench:rate                              steps 10, 25, 50 purchases/s, 60 s each (about 6 minutes)
 *   npm run bench:rate -- --step-seconds 10         the same steps, 10 s each
 *   npm run bench:rate -- --steps 5,10 --documented-limits    keep DaisySMS's documented 20 active rentals
 *
 * BENCH_PORT picks the port (default 8823). 127.0.0.1 only.
 */
const { values } = parseArgs({
  options: {
    "step-seconds": { type: "string", default: "60" },
    steps: { type: "string", default: "10,25,50" },
    customers: { type: "string", default: "200" },
    "max-in-flight": { type: "string", default: "64" },
    "documented-limits": { type: "boolean", default: false },
    "code-delay-ms": { type: "string", default: "10000" },
  },
});
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const port = Number(process.env.BENCH_PORT ?? 8823);
const stepSeconds = Number(values["step-seconds"]);
const steps = values.steps.split(",").map(Number);
if (!(stepSeconds > 0) || steps.some((s) => !(s > 0))) throw new Error("--step-seconds and --steps must be positive numbers");

function devVar(name: string): string | null {
  const file = path.join(root, ".dev.vars");
  if (!existsSync(file)) return null;
  const line = readFileSync(file, "utf8").split("\n").find((l) => l.startsWith(`${name}=`));
  return line ? line.slice(name.length + 1).trim() : null;
}

const codeDelayMs = Number(values["code-delay-ms"]);
// SWIFT_WEBHOOK=on: DaisySMS's webhook is set, as production should have it (decision 051): its polls are a fallback.
const server = await startServer(port, ["D1_METRICS:true", `SANDBOX_SMS_DELAY_MS:${codeDelayMs}`, "SWIFT_WEBHOOK:on"]);
console.log(
  `rate benchmark on ${server.url}: steps ${steps.join(", ")} purchases/s, ${stepSeconds} s each; codes arrive ${codeDelayMs / 1000} s after purchase; SMS polling as in production (6 s x 15); DaisySMS's webhook on (its "poll" orders are pushes that never came: the fallback)`,
);
try {
  const report = await runRate({
    base: server.url,
    fetch: (url, init) => fetch(url, { ...init, signal: AbortSignal.timeout(60_000) }),
    steps,
    stepSeconds,
    customers: Number(values.customers),
    // Enough for every purchase a customer makes in the run at about ₦1,500 each (cost limit: 30 a minute).
    fundNaira: 150_000,
    maxInFlight: Number(values["max-in-flight"]),
    squadSecret: devVar("SQUAD_SECRET_KEY"),
    log: (line) => console.log(line),
    // The production polling window is 15 x 6 s: a timed-out order needs 90 s and its refund after the last step.
    drainSeconds: 150,
    raiseSlotLimits: !values["documented-limits"],
    poll: null,
    codeDelayMs,
    slotSampleMs: 2000,
  });
  process.exitCode = report.ok && report.steps.every((s) => s.nonClientErrors === 0) ? 0 : 1;
} finally {
  server.stop();
}
