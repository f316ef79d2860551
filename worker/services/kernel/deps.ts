import type { SmsProviderName } from "../../../schema/constants";
import type { RealtimeMessage } from "../../../schema/realtime";
import type { Config, Env } from "../../config";
import { getDb, type Db } from "../../db/client";
import { paymentProviders, type PaymentProviders } from "../../providers/payments/providers";
import { rentalProviderFor } from "../../providers/rent";
import type { RentalProvider } from "../../providers/rent/types";
import { smsProviderFor } from "../../providers/sms";
import type { SmsProvider } from "../../providers/sms/types";
import { isSmsUpstream, PRIMARY_UPSTREAM, smsUpstreamFor } from "../../providers/sms/upstreams";
import { notify } from "./notify";
import { envForUser, providerModeFor } from "./sandbox-accounts";

/**
 * The dependency shape of the three money flows (issue 14, docs/decisions/028-money-flow-deps.md): Receive SMS,
 * Rent Number and wallet funding each get `{ env, db, provider, notify, clock }`, built in one place per flow
 * (smsDeps, rentalDeps, paymentDeps below) and handed in by whoever calls: a route, a Durable Object's tick, the cron
 * sweep, the developer API's services. A service never builds its own upstream, never calls Date.now() and never
 * imports services/notify.ts itself, so a test injects the same three things the same way whichever flow it drives:
 *  - the upstream, through providers/test-seams.ts, which every provider builder reads (routes and Durable Objects
 *    build their deps themselves, so a seam is the only way in there);
 *  - the clock and the push, by spreading its own over the built deps (`{ ...smsDeps(env), clock, notify }`) when it
 *    calls a service directly (worker/test/flow-deps.ts has a fixed clock and a recording notify).
 */
export interface MoneyFlowDeps<Provider> {
  /** The bindings, for what is not a dependency of its own: Durable Object namespaces, settings, the catalogue. */
  env: Env;
  db: Db;
  /** The upstream(s) the flow talks to. */
  provider: Provider;
  /**
   * Pushes to the customer's open screens (services/notify.ts): best effort, never throws. An event developer webhooks
   * also get is written to the outbox in the flow's batch instead, and its delivery (services/kernel/outbox.ts
   * deliverEvents(deps, userId)) calls this.
   */
  notify: Notify;
  /** The flow's one time source: every timestamp it writes and every deadline it checks. */
  clock: Clock;
}

export type Notify = (userId: string, message: RealtimeMessage) => Promise<void>;

export interface Clock {
  now(): number;
}

/** Production's clock. */
export const systemClock: Clock = { now: () => Date.now() };

/**
 * Receive SMS picks its upstream per order: the order's provider name (Swift, Dynamic), and the customer's account (a
 * sandbox account, test API key, always reaches the simulators: services/sandbox-accounts.ts envForUser).
 */
export type SmsProviderResolver = (name: SmsProviderName, userId: string, route?: UpstreamRoute) => SmsProvider;

/** Which upstream account serves an order (issue 32's routing, issue 30's key pool); absent: the provider's primary. */
export interface UpstreamRoute {
  upstream: string;
  account: number;
}

export type SmsDeps = MoneyFlowDeps<SmsProviderResolver>;

/**
 * Rent Number picks its upstream per customer: a sandbox account (test API key) always reaches the simulator
 * (services/sandbox-accounts.ts providerModeFor); everyone else the deployment's configured one. The calls that have no
 * customer (the country list the web form shows) pass null and get the deployment's own.
 */
export type RentalProviderResolver = (userId: string | null) => RentalProvider;

export type RentalDeps = MoneyFlowDeps<RentalProviderResolver>;

export interface PaymentDeps extends MoneyFlowDeps<PaymentProviders> {
  /** Keeps best-effort work (realtime pushes) alive after the answer: waitUntil in a request or an object, collected
   *  and awaited by the cron sweep. */
  defer: (work: Promise<unknown>) => void;
}

type Defer = PaymentDeps["defer"];

/** What the outbox's delivery needs, for a caller outside the three flows (an operator's entry, the sweep). */
export function eventDeps(env: Env): Pick<MoneyFlowDeps<unknown>, "env" | "db" | "notify" | "clock"> {
  return common(env);
}

function common(env: Env): Pick<MoneyFlowDeps<unknown>, "env" | "db" | "notify" | "clock"> {
  return { env, db: getDb(env.DB), notify: (userId, message) => notify(env, userId, message), clock: systemClock };
}

/**
 * The SMS adapters are chosen by the bindings (PROVIDERS, read by providers/sms/index.ts smsProviderFor, the same
 * reading the catalogue uses), so this builder needs no config: a second source for the mode could only disagree.
 */
export function smsDeps(env: Env): SmsDeps {
  return {
    ...common(env),
    provider: (name, userId, route) => {
      const forUser = envForUser(env, userId);
      // The provider's primary first account is built as it always was (smsProviderFor: the seam tests replace).
      if (!route || !isSmsUpstream(route.upstream) || (route.upstream === PRIMARY_UPSTREAM[name] && route.account === 0)) return smsProviderFor(forUser, name);
      return smsUpstreamFor(forUser, route.upstream, route.account, name);
    },
  };
}

/** Each mode's adapter is built once per deps, on first use (a live deployment builds the simulator's only when a
 * sandbox account rents). */
export function rentalDeps(env: Env, config: Pick<Config, "providers">): RentalDeps {
  const built: Partial<Record<Config["providers"], RentalProvider>> = {};
  const forMode = (providers: Config["providers"]) => (built[providers] ??= rentalProviderFor(env, { providers }));
  return { ...common(env), provider: (userId) => forMode(userId === null ? config.providers : providerModeFor(config.providers, userId)) };
}

export function paymentDeps(env: Env, config: Pick<Config, "providers" | "publicUrl">, defer: Defer): PaymentDeps {
  return { ...common(env), provider: paymentProviders(env, config), defer };
}
