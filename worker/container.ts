import type { SmsProviderName } from "../schema/constants";
import { configFor, type Env, type ProviderMode } from "./config";
import { getDb } from "./db/client";
import { emailSenderFor } from "./providers/email/select";
import { webPushSenderFor } from "./providers/push/select";
import type { FetchLike } from "./providers/upstream-http";
import { paymentProviders, type PaymentFetchInterceptor, type PaymentProviders } from "./providers/payments/providers";
import { RENT_UPSTREAMS, rentalProviderFor, rentUpstreamConfigured, rentUpstreamFor, type RentUpstream } from "./providers/rent";
import type { RentalProvider } from "./providers/rent/types";
import { smsUpstreamFor } from "./providers/sms";
import type { SmsProvider } from "./providers/sms/types";
import { TELEGRAM_API_ROOT, TELEGRAM_SIMULATOR_PATH, telegramBotApiFor } from "./providers/telegram/bot-api";
import { withoutD1Counting } from "./lib/d1-metrics";
import { telegramBotApiSimulator } from "./sandbox/telegram-bot-api";
import { isSmsUpstream, PRIMARY_UPSTREAM, type SmsUpstream } from "./providers/sms/upstreams";
import {
  type Clock,
  combineChannels,
  deploymentProviderSet,
  notify,
  type Notify,
  type PaymentDeps,
  providerSetFor,
  type RentalDeps,
  type Services,
  type SmsDeps,
  type Upstreams,
  type WebhookSend,
} from "./services/kernel";
import { telegramChannel } from "./services/telegram";
import { deliveryChannels } from "./services/notifications";

/**
 * The one place that turns the bindings into dependencies (issue 29, docs/decisions/050-services-container.md): the
 * services container of a request (app.ts's middleware sets c.var.services), of a Durable Object's alarm (objects/) and
 * of a cron run (scheduled.ts). It lives beside those composition roots, above worker/services, because it is the only
 * module that imports the provider adapters' constructors as well as the rooms' kernel; a service never builds an
 * adapter (scripts/lint.ts).
 */

/**
 * What a test may hand the builder instead of the real upstreams (worker/test/services.ts). Each answers for what it
 * replaces; `smsUpstream` may answer null to leave that upstream account to the real adapter (the simulators in sandbox
 * mode), and `payments` intercepts each payment-provider request in sandbox mode (answering itself or passing it on to
 * the simulator; upstream calls then time out after 200 ms).
 */
export interface UpstreamOverrides {
  sms?: ((mode: ProviderMode, name: SmsProviderName, env: Env) => SmsProvider) | null;
  smsUpstream?: ((mode: ProviderMode, upstream: string, account: number, provider: SmsProviderName, env: Env) => SmsProvider | null) | null;
  /** sms-man's rent adapter; given alone (no rentUpstream), the test's deployment rents from sms-man only. */
  rent?: ((env: Env, mode: ProviderMode) => RentalProvider) | null;
  /** Another rent upstream's adapter (issue 49: HeroSMS); null leaves it to the real adapter (the simulator in sandbox). */
  rentUpstream?: ((env: Env, mode: ProviderMode, upstream: RentUpstream) => RentalProvider | null) | null;
  payments?: PaymentFetchInterceptor | null;
  webhooks?: WebhookSend | null;
  /**
   * Each Telegram Bot API request (issue 48): answered by the test itself, or passed on to the sandbox simulator
   * (`simulator`), as `payments` does for the payment providers.
   */
  telegram?: ((request: Request, simulator: (request: Request) => Promise<Response>) => Promise<Response>) | null;
  /** Web Push's transport (issue 47): a test's push service; the sandbox one still answers its own origin. */
  push?: FetchLike | null;
}

export interface ServicesOptions {
  /** waitUntil of the request or the object; the cron passes a collector it awaits. */
  defer: (work: Promise<unknown>) => void;
  requestId?: string | null;
  clock?: Clock;
  notify?: Notify;
  upstreams?: UpstreamOverrides;
}

/**
 * Production's clock, the only reader of the system's time the services get (issue 42: one clock): every service takes
 * its time from the container (`services.clock`, a flow's `deps.clock`), so a test moves time through the whole money
 * path by handing the container its own (worker/test/services.ts).
 */
export const systemClock: Clock = { now: () => Date.now() };

/** The real adapters for these bindings, each built when first asked for. */
function realUpstreams(env: Env, overrides: UpstreamOverrides): Upstreams {
  const config = configFor(env);
  let payments: PaymentProviders | undefined;
  // Each adapter is built for the provider set's mode the caller names (a sandbox account's: "sandbox"), never from a
  // copy of the bindings (issue 42).
  const smsAccount = (mode: ProviderMode, upstream: SmsUpstream, account: number, provider: SmsProviderName): SmsProvider =>
    overrides.smsUpstream?.(mode, upstream, account, provider, env) ?? smsUpstreamFor(env, upstream, account, provider, mode);
  return {
    sms: (mode, name) => overrides.sms?.(mode, name, env) ?? smsAccount(mode, PRIMARY_UPSTREAM[name], 0, name),
    smsAccount,
    rent: (mode, upstream = "smsman") =>
      upstream === "smsman"
        ? (overrides.rent?.(env, mode) ?? rentalProviderFor(env, { providers: mode }))
        : (overrides.rentUpstream?.(env, mode, upstream) ?? rentUpstreamFor(env, upstream, mode === "sandbox")),
    rentUpstreams: (mode) =>
      overrides.rent && !overrides.rentUpstream ? ["smsman"] : RENT_UPSTREAMS.filter((u) => rentUpstreamConfigured(env, u, mode === "sandbox")),
    payments: () => (payments ??= paymentProviders(env, config, overrides.payments ?? undefined)),
    email: () => emailSenderFor(env, config, getDb(env.DB)),
    webhookSend: overrides.webhooks ?? ((url, init) => fetch(url, init)),
    telegram: () => {
      if (!config.telegram) return null;
      if (config.providers !== "sandbox") return telegramBotApiFor(config.telegram, { apiRoot: TELEGRAM_API_ROOT, fetch: (input, init) => fetch(input, init) });
      // Sandbox: the same adapter, its requests answered in-process by the Bot API simulator on our own origin.
      const simulator = async (request: Request) => telegramBotApiSimulator.fetch(request, withoutD1Counting(env));
      const intercept = overrides.telegram;
      return telegramBotApiFor(config.telegram, {
        apiRoot: `${config.publicUrl}${TELEGRAM_SIMULATOR_PATH}`,
        fetch: async (input, init) => {
          const request = new Request(input, init);
          return intercept ? intercept(request, simulator) : simulator(request);
        },
      });
    },
    webPush: () => webPushSenderFor(env, config, overrides.push ?? undefined),
  };
}

/**
 * Builds the container. The money flows' deps are views of it, built on first use (a request that moves no money
 * builds none), and each is built once per container: a route, its service and the services it calls share one.
 */
export function buildServices(env: Env, options: ServicesOptions): Services {
  const overrides: UpstreamOverrides = options.upstreams ?? {};
  const config = configFor(env);
  const db = getDb(env.DB);
  const clock = options.clock ?? systemClock;
  const push: Notify = options.notify ?? ((userId, message) => notify(env, userId, message));
  const upstreams = realUpstreams(env, overrides);
  const providerSet = deploymentProviderSet(config.providers);
  // The outbox's channels beside the room and the webhooks (kernel/deps.ts DeliveryChannels), composed here above the
  // rooms: Web Push and rental forwarding (issue 47, the notifications room) and the linked Telegram chat when the
  // deployment has a bot (issue 48).
  const channels = combineChannels(deliveryChannels(env, db), ...(config.telegram ? [telegramChannel(env, db)] : []));
  const common = { env, db, notify: push, clock, upstreams, providerSet, channels };
  let sms: SmsDeps | undefined;
  let rent: RentalDeps | undefined;
  let payments: PaymentDeps | undefined;
  return {
    env,
    config,
    db,
    clock,
    notify: push,
    defer: options.defer,
    requestId: options.requestId ?? null,
    upstreams,
    providerSet,
    channels,
    get sms() {
      return (sms ??= {
        ...common,
        // Receive SMS picks its upstream per order: the order's provider and route, in its customer's provider set (a
        // sandbox account always reaches the simulators).
        provider: (name, userId, route) => {
          const { mode } = providerSetFor(providerSet, userId);
          if (!route || !isSmsUpstream(route.upstream) || (route.upstream === PRIMARY_UPSTREAM[name] && route.account === 0)) return upstreams.sms(mode, name);
          return upstreams.smsAccount(mode, route.upstream, route.account, name);
        },
      });
    },
    get rent() {
      if (rent) return rent;
      // Each mode's adapter is built once, on first use (a live deployment builds the simulator's only when a sandbox
      // account rents).
      const built: Partial<Record<`${ProviderMode}:${RentUpstream}`, RentalProvider>> = {};
      const modeOf = (userId: string | null) => providerSetFor(providerSet, userId).mode;
      return (rent = {
        ...common,
        provider: (userId, upstream = "smsman") => (built[`${modeOf(userId)}:${upstream}`] ??= upstreams.rent(modeOf(userId), upstream)),
        rentUpstreams: (userId) => upstreams.rentUpstreams(modeOf(userId)),
      });
    },
    get payments() {
      return (payments ??= { ...common, provider: upstreams.payments(), defer: options.defer });
    },
    get events() {
      return { env, db, notify: push, clock, channels };
    },
  };
}

export type ServicesFactory = (env: Env, options: ServicesOptions) => Services;

/**
 * Tests reach the worker through its fetch handler and the objects' alarms, which cannot be handed a container per
 * call; so the factory itself is the one thing a test may replace (worker/test/services.ts useTestUpstreams, reset
 * after each test file by worker/test/setup.ts). Production never sets it.
 */
let factoryForTests: ServicesFactory | null = null;

/** Tests only: every container built from now on comes from `factory` (null: back to buildServices). */
export function replaceServicesFactoryForTests(factory: ServicesFactory | null): void {
  factoryForTests = factory;
}

/**
 * What each composition root calls (app.ts's middleware, objects/tick-scheduler.ts, the cron below): buildServices,
 * unless a test replaced the factory.
 */
export function servicesFor(env: Env, options: ServicesOptions): Services {
  return (factoryForTests ?? buildServices)(env, options);
}

/**
 * The cron's container: what it defers is collected and awaited before the run ends (a scheduled handler's waitUntil
 * would also do, but the sweep's callers in tests await the run itself).
 */
export function cronServices(env: Env, options: Omit<ServicesOptions, "defer"> = {}): { services: Services; settle: () => Promise<void> } {
  const pending: Promise<unknown>[] = [];
  const services = servicesFor(env, { ...options, defer: (work) => void pending.push(work) });
  return { services, settle: async () => void (await Promise.allSettled(pending)) };
}
