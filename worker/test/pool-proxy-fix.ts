import { DurableObject, WorkerEntrypoint, WorkflowEntrypoint } from "cloudflare:workers";

/**
 * Works around a bug of @cloudflare/vitest-pool-workers 0.15.1 that made every worker test file quadratic in the
 * requests it sends: the pool's wrapper classes (the `exports.default` entrypoint every api() call goes through, and
 * each Durable Object class) install a Proxy over their own prototype inside their constructor, so every construction
 * (one per request, one per Durable Object instance) wraps the previous Proxy again. After N requests a property read
 * on the entrypoint runs N nested `get` traps: measured here, a 404 took 3 ms at first and over 250 ms after ~900
 * requests, and the 1,500 requests of reliability/hostile-input.test.ts took 140 s instead of a few.
 * Upstream: https://github.com/cloudflare/workers-sdk/issues/15092, fixed by pull request 15106 (install the Proxy
 * once per wrapper class), in a release that also moves wrangler and miniflare, hence this shim until we upgrade.
 *
 * The pool's constructor is `Class.prototype = new Proxy(Class.prototype, ...); return Reflect.construct(superClass,
 * args, Class)`. This wraps Reflect.construct: the first construction of a wrapper class keeps its one Proxy, and every
 * later one puts that same prototype back before constructing, which is exactly what the upstream fix does. Only
 * constructions of the three runtime base classes through a subclass are touched; with a fixed pool the prototype never
 * changes and this does nothing. It runs in the test isolate only (worker/test/setup.ts), never in the worker.
 */
const bases = new Set<unknown>([WorkerEntrypoint, DurableObject, WorkflowEntrypoint]);
const installed = Symbol.for("virtual-numbers.pool-proxy-fix");

export function installPoolProxyFix(): void {
  const holder = Reflect as typeof Reflect & { [installed]?: true };
  if (holder[installed]) return; // setup files may run more than once in one isolate
  const firstPrototype = new WeakMap<object, unknown>();
  const construct = Reflect.construct;
  type Constructor = abstract new (...args: never[]) => unknown;
  Reflect.construct = function (target: Constructor, args: ArrayLike<unknown>, newTarget?: Constructor) {
    if (newTarget !== undefined && newTarget !== target && bases.has(target)) {
      const kept = firstPrototype.get(newTarget);
      if (kept === undefined) firstPrototype.set(newTarget, newTarget.prototype);
      else (newTarget as { prototype: unknown }).prototype = kept;
    }
    return newTarget === undefined ? construct(target, args) : construct(target, args, newTarget);
  } as typeof Reflect.construct;
  holder[installed] = true;
}
