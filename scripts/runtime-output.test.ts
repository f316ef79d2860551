import { describe, expect, it } from "vitest";
import { createRuntimeOutputFilter, DISCONNECT_NOTE } from "./runtime-output";

const run = (lines: string[]) => {
  const filter = createRuntimeOutputFilter();
  return lines.flatMap(filter);
};

describe("npm start's view of the runtime's output", () => {
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

  it("keeps the app's log lines as they are, colours included", () => {
    const esc = String.fromCharCode(27);
    const lines = ['{"level":"info","msg":"request","method":"GET","path":"/api/health","status":200,"ms":1}', `${esc}[33mwarning${esc}[0m`];
    expect(run(lines)).toEqual(lines);
  });
});
