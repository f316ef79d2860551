import { env as testEnv } from "cloudflare:workers";
import type { Config, Env } from "../config";
import { buildServices, cronServices, replaceServicesFactoryForTests, type UpstreamOverrides } from "../container";
import { runPaymentSweep } from "../services/funding";
import type { Clock, EventDepsOf, Notify, PaymentDeps, RentalDeps, Services, SmsDeps } from "../services/kernel";

/**
 * How a test gets its dependencies (issue 29, docs/decisions/050-services-container.md): it builds the services
 * container with worker/container.ts's one builder, handing in its own upstreams, clock and notify, exactly as a
 * request, an alarm or the cron builds its own. Work the services defer is kept and can be awaited (`settle`).
 */
export interface TestServicesOptions {
  env?: Env;
  upstreams?: UpstreamOverrides;
  clock?: Clock;
  notify?: Notify;
  defer?: (work: Promise<unknown>) => void;
}

/**
 * What every container gets while a test runs, whoever builds it: a request through SELF/fetch, a Durable Object's
 * alarm, the cron or testServices below. useTestServices sets (or, with null, clears) the named upstreams, the clock and
 * notify, and replaces the container factory (worker/container.ts replaceServicesFactoryForTests) so the worker builds
 * its containers with them; resetTestServices puts everything back (worker/test/setup.ts calls it after each file).
 */
interface TestContainer {
  upstreams: UpstreamOverrides;
  clock?: Clock;
  notify?: Notify;
}

let current: TestContainer = { upstreams: {} };

export function useTestServices(next: { upstreams?: UpstreamOverrides; clock?: Clock | null; notify?: Notify | null }): void {
  const upstreams = Object.fromEntries(Object.entries({ ...current.upstreams, ...next.upstreams }).filter(([, value]) => value != null));
  const clock = next.clock === undefined ? current.clock : (next.clock ?? undefined);
  const notify = next.notify === undefined ? current.notify : (next.notify ?? undefined);
  current = { upstreams, clock, notify };
  const replaced = Object.keys(upstreams).length > 0 || clock !== undefined || notify !== undefined;
  replaceServicesFactoryForTests(
    replaced
      ? (env, options) =>
          buildServices(env, { ...options, clock: options.clock ?? clock, notify: options.notify ?? notify, upstreams: { ...upstreams, ...options.upstreams } })
      : null,
  );
}

/** The upstreams alone (the common case): `useTestUpstreams({ sms: () => scripted })`, `{ sms: null }` to clear. */
export function useTestUpstreams(next: UpstreamOverrides): void {
  useTestServices({ upstreams: next });
}

export function resetTestServices(): void {
  current = { upstreams: {} };
  replaceServicesFactoryForTests(null);
}

export function testServices(options: TestServicesOptions = {}): Services & { settle(): Promise<void> } {
  const pending: Promise<unknown>[] = [];
  const services = buildServices(options.env ?? testEnv, {
    defer: options.defer ?? ((work) => void pending.push(work)),
    clock: options.clock ?? current.clock,
    notify: options.notify ?? current.notify,
    upstreams: { ...current.upstreams, ...options.upstreams },
  });
  return Object.assign(services, { settle: async () => void (await Promise.allSettled(pending)) });
}

/** The cron's container over the test's bindings (what worker/scheduled.ts builds per run). */
export const testCronServices = (options: Omit<TestServicesOptions, "defer"> = {}) =>
  cronServices(options.env ?? testEnv, { clock: options.clock, notify: options.notify, upstreams: options.upstreams });

// The flows' deps of a fresh container, named as the tests have always called them.
export const smsDeps = (env: Env, upstreams?: UpstreamOverrides): SmsDeps => testServices({ env, upstreams }).sms;
export const rentalDeps = (env: Env, _config?: Pick<Config, "providers">, upstreams?: UpstreamOverrides): RentalDeps =>
  testServices({ env, upstreams }).rent;
export const paymentDeps = (env: Env, _config: unknown, defer: (work: Promise<unknown>) => void, upstreams?: UpstreamOverrides): PaymentDeps =>
  testServices({ env, defer, upstreams }).payments;
export const eventDeps = (env: Env): EventDepsOf => testServices({ env }).events;

/** The cron's payment sweep on a container of its own, its deferred pushes awaited (as worker/scheduled.ts does). */
export async function sweepPaymentsNow(options: Omit<TestServicesOptions, "defer"> = {}): Promise<void> {
  const { services, settle } = testCronServices(options);
  await runPaymentSweep(services.payments);
  await settle();
}
