/**
 * `npm start` keeps wrangler dev up (issue 30). wrangler dev can exit on its own mid-run: its ProxyWorker turns a
 * request-scoped "Network connection lost." into a fatal error and exits 1 (cloudflare/workers-sdk#8087, #15317,
 * #15451, #14926). Measured here (decision 058): a request to "/" that meets the 5 s keep-alive race between wrangler's
 * proxy and the app (workers-sdk#14641); scripts/start.ts keeps that pool warm so it should not happen, and this stays
 * for whatever still does. Nothing of ours is lost when it does:
 * the state is on disk (.wrangler/state or PERSIST_TO), so the supervisor starts it again with the same arguments
 * (same port, same state) and says so in one line. A child that keeps dying at once is given up on (and the start
 * script exits with its code), so a real start-up error is not hidden behind restarts.
 */

/** What the supervisor needs of a child process (node's ChildProcess has it; tests pass a fake). */
export interface Supervised {
  on(event: "exit", listener: (code: number | null, signal: NodeJS.Signals | null) => void): unknown;
  kill(signal?: NodeJS.Signals): unknown;
}

export interface SupervisorOptions<C extends Supervised> {
  start: () => C;
  /** One line per restart, and one when it gives up. */
  say: (line: string) => void;
  /** Called once when the supervisor ends: the child was stopped by us, or gave up restarting. */
  exit: (code: number) => void;
  /** Where the restarted child serves (for the line). */
  port: string;
  now?: () => number;
  later?: (fn: () => void, ms: number) => void;
  /** At most this many restarts within `windowMs`; one more exit within it gives up. */
  maxRestarts?: number;
  windowMs?: number;
  /** Pause before a restart, so the port is released. */
  delayMs?: number;
}

export interface Supervisor<C> {
  /** The child now running. */
  current(): C;
  /** Stops the child for good (Ctrl+C): its exit ends the supervisor instead of restarting it. */
  stop(signal?: NodeJS.Signals): void;
  restarts(): number;
}

export function supervise<C extends Supervised>(opts: SupervisorOptions<C>): Supervisor<C> {
  const now = opts.now ?? Date.now;
  const later = opts.later ?? ((fn, ms) => void setTimeout(fn, ms));
  const maxRestarts = opts.maxRestarts ?? 5;
  const windowMs = opts.windowMs ?? 60_000;
  const delayMs = opts.delayMs ?? 1000;
  const restartTimes: number[] = [];
  let stopping = false;
  let total = 0;
  let child: C;

  const run = () => {
    child = opts.start();
    child.on("exit", (code, signal) => {
      // Killed by a stop signal from outside (Ctrl+C reaches the whole process group, a bench stops its server's group):
      // that is a stop, not a crash.
      if (stopping || signal === "SIGINT" || signal === "SIGTERM" || signal === "SIGHUP") return opts.exit(code ?? 0);
      const t = now();
      while (restartTimes.length && t - restartTimes[0] > windowMs) restartTimes.shift();
      const how = signal ? `signal ${signal}` : `code ${code}`;
      if (restartTimes.length >= maxRestarts) {
        opts.say(`wrangler dev exited (${how}) ${restartTimes.length + 1} times within ${windowMs / 1000} s: not restarting it`);
        return opts.exit(code ?? 1);
      }
      restartTimes.push(t);
      total += 1;
      opts.say(`wrangler dev exited (${how}); restarting it on port ${opts.port} with the same local state (restart ${total})`);
      later(() => {
        if (!stopping) run();
        else opts.exit(code ?? 0);
      }, delayMs);
    });
  };
  run();

  return {
    current: () => child,
    stop: (signal = "SIGTERM") => {
      stopping = true;
      child.kill(signal);
    },
    restarts: () => total,
  };
}
