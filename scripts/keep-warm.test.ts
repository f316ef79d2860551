import { afterEach, describe, expect, it, vi } from "vitest";
import { keepWarm } from "./keep-warm";

// npm start's keep-warm request (decision 058): one a second, never two at once, failures ignored.
describe("keepWarm", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("sends one request per interval, none while the last is unanswered, and goes on after a failure", async () => {
    vi.useFakeTimers();
    const calls: string[] = [];
    const answers: Array<(ok: boolean) => void> = [];
    const timer = keepWarm("http://127.0.0.1:1/api/health", {
      everyMs: 1000,
      fetch: (url) => {
        calls.push(url);
        return new Promise((resolve, reject) => answers.push((ok) => (ok ? resolve({ arrayBuffer: async () => null }) : reject(new Error("ECONNREFUSED")))));
      },
    });
    await vi.advanceTimersByTimeAsync(1000);
    expect(calls).toEqual(["http://127.0.0.1:1/api/health"]);
    await vi.advanceTimersByTimeAsync(3000); // the first is still unanswered: no second request
    expect(calls).toHaveLength(1);
    answers[0](false); // a failed request (the server restarting) is ignored
    await vi.advanceTimersByTimeAsync(1000);
    expect(calls).toHaveLength(2);
    answers[1](true);
    await vi.advanceTimersByTimeAsync(1000);
    expect(calls).toHaveLength(3);
    clearInterval(timer);
  });
});
