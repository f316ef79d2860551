import { EventEmitter } from "node:events";
import { describe, expect, it } from "vitest";
import { supervise } from "./supervise";

/** A fake child process: exits when the test says so. */
class FakeChild extends EventEmitter {
  killed: string | null = null;
  kill(signal = "SIGTERM") {
    this.killed = signal;
    this.emit("exit", null, signal);
    return true;
  }
  die(code: number) {
    this.emit("exit", code, null);
  }
}

function harness(opts: { maxRestarts?: number } = {}) {
  const children: FakeChild[] = [];
  const lines: string[] = [];
  const exits: number[] = [];
  const timers: (() => void)[] = [];
  let clock = 0;
  const sup = supervise({
    start: () => {
      const c = new FakeChild();
      children.push(c);
      return c;
    },
    say: (l) => lines.push(l),
    exit: (code) => exits.push(code),
    port: "8787",
    now: () => clock,
    later: (fn) => timers.push(fn),
    maxRestarts: opts.maxRestarts ?? 3,
    windowMs: 60_000,
  });
  return { sup, children, lines, exits, timers, tick: (ms: number) => (clock += ms), flush: () => timers.splice(0).forEach((f) => f()) };
}

describe("npm start supervises wrangler dev", () => {
  it("restarts a child that died, on the same port, and says so in one line", () => {
    const h = harness();
    h.children[0].die(1);
    expect(h.lines).toEqual(["wrangler dev exited (code 1); restarting it on port 8787 with the same local state (restart 1)"]);
    expect(h.children).toHaveLength(1); // after the pause
    h.flush();
    expect(h.children).toHaveLength(2);
    expect(h.sup.current()).toBe(h.children[1]);
    expect(h.exits).toEqual([]);
  });

  it("stops for good when asked: the child's exit ends the supervisor, no restart", () => {
    const h = harness();
    h.sup.stop("SIGINT");
    expect(h.children[0].killed).toBe("SIGINT");
    h.flush();
    expect(h.children).toHaveLength(1);
    expect(h.exits).toEqual([0]);
    expect(h.lines).toEqual([]);
  });

  it("a child killed by a stop signal from outside (Ctrl+C to the process group) is not restarted", () => {
    const h = harness();
    h.children[0].emit("exit", null, "SIGTERM");
    h.flush();
    expect(h.children).toHaveLength(1);
    expect(h.exits).toEqual([0]);
  });

  it("gives up on a child that keeps dying within the window, and exits with its code", () => {
    const h = harness({ maxRestarts: 2 });
    for (let i = 0; i < 2; i++) {
      h.children.at(-1)!.die(1);
      h.flush();
    }
    h.children.at(-1)!.die(7);
    expect(h.exits).toEqual([7]);
    expect(h.lines.at(-1)).toBe("wrangler dev exited (code 7) 3 times within 60 s: not restarting it");
    expect(h.children).toHaveLength(3);
  });

  it("deaths spread over time are each restarted", () => {
    const h = harness({ maxRestarts: 2 });
    for (let i = 0; i < 5; i++) {
      h.children.at(-1)!.die(1);
      h.flush();
      h.tick(61_000);
    }
    expect(h.children).toHaveLength(6);
    expect(h.exits).toEqual([]);
    expect(h.sup.restarts()).toBe(5);
  });
});
