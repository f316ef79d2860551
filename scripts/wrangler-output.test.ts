import { describe, expect, it } from "vitest";
import { createWranglerOutputFilter, DISCONNECT_NOTE, SCHEDULED_NOTE } from "./wrangler-output";

const run = (lines: string[]) => {
  const filter = createWranglerOutputFilter();
  return lines.flatMap(filter);
};

describe("npm start's view of wrangler's output", () => {
  it("replaces the scheduled-workers warning (the start script runs the sweep) with one explaining line", () => {
    const esc = String.fromCharCode(27);
    const out = run([
      `${esc}[33m▲ ${esc}[43;33m[${esc}[43;30mWARNING${esc}[43;33m]${esc}[0m ${esc}[1mScheduled Workers are not automatically triggered during local development.${esc}[0m`,
      "",
      "  To manually trigger a scheduled event, run:",
      '    curl "http://127.0.0.1:8787/cdn-cgi/handler/scheduled"',
      "  For more details, see https://developers.cloudflare.com/workers/configuration/cron-triggers/",
      "[wrangler:info] GET /api/health 200 OK",
    ]);
    expect(out).toEqual([SCHEDULED_NOTE, "[wrangler:info] GET /api/health 200 OK"]);
  });

  it("folds broken-pipe and connection-reset traces into one note and keeps real errors", () => {
    const out = run([
      "workerd/server/server.c++:4516: error: Uncaught exception: kj/async-io-unix.c++:186: disconnected: ::write(fd, buffer, size): Broken pipe",
      "    at workerd/io/io-context.c++:123",
      "kj/async-io-unix.c++:532: disconnected: ::recv(): Connection reset by peer",
      "✘ [ERROR] Error: D1_ERROR: no such table: users",
      "Error: write EPIPE",
      "    at afterWriteDispatched (node:internal/stream_base_commons:160:15)",
    ]);
    expect(out).toEqual([DISCONNECT_NOTE, "✘ [ERROR] Error: D1_ERROR: no such table: users"]);
  });
});
