import type { SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { SmsProviderName } from "../../../schema/constants";
import type { RealtimeMessage } from "../../../schema/realtime";
import type { Config, Env, ProviderMode } from "../../config";
import type { Db } from "../../db/client";
import type { EmailSender } from "../../providers/email/email-sender";
import type { PaymentProviders } from "../../providers/payments/types";
import type { RentUpstream } from "../../providers/rent";
import type { WebPushSender } from "../../providers/push/web-push";
import type { RentalProvider } from "../../providers/rent/types";
import type { SmsProvider } from "../../providers/sms/types";
import type { SmsUpstream } from "../../providers/sms/upstreams";
import type { TelegramBotApi } from "../../providers/telegram/bot-api";
import type { DeliveryKind } from "./delivery-queue";

/**
 * The dependency shape of the three money flows (issue 14, docs/decisions/028-money-flow-deps.md): Receive SMS,
 * Rent Number and wallet funding each get `{ env, db, provider, notify, clock, upstreams }`, a view of the services
 * container (Services below; decision 050) that worker/container.ts builds once per request, alarm and cron run, and
 * hand in by whoever calls: a route (c.var.services.sms), a Durable Object's tick, the cron sweep, the developer API's
 * services. A service never builds its own upstream, never reads the system's time and never imports services/notify.ts
 * itself, so a test injects the same three things the same way whichever flow it drives: it builds the container with
 * its own upstreams, clock and notify (worker/test/services.ts).
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
  /** The flow's one time source: every timestamp it writes and every deadline it checks (the container's clock). */
  clock: Clock;
  /** Every upstream adapter of the container, for what the flow reads besides its own provider (the SMS catalogue). */
  upstreams: Upstreams;
  /** The deployment's provider set (services/kernel/sandbox-accounts.ts): a customer's is providerSetFor(this, userId). */
  providerSet: ProviderSet;
  /** The outbox's delivery channels beyond the room and the developer webhooks (issue 47's Web Push and forwarding, issue 48's Telegram bot); absent: none. */
  channels?: DeliveryChannels;
}

/**
 * Where else an outbox event goes (issue 47, decision 069: Web Push to the customer's devices, rental forwarding;
 * issue 48, decision 070: the linked Telegram chat). The kernel only knows this shape; a room implements it
 * (services/notifications/, services/telegram/delivery.ts) and the container composes the list above the rooms
 * (worker/container.ts), so the outbox's delivery stays one exactly-once path for every channel and a channel can
 * later move onto a queue without the kernel changing.
 */
export interface DeliveryChannels {
  /** The statements that queue one event's deliveries, run in the batch that marks the event delivered ([]: none). */
  fanOut(event: { id: string; userId: string; createdAt: number }, message: RealtimeMessage, now: number): Promise<BatchItem<"sqlite">[]>;
  /** After that batch committed: wake whatever sends them. Never throws (the sweep wakes what a lost kick left). */
  kick(userId: string): Promise<void>;
  /** True in SQL while the customer has no channel at all, so the outbox's fast path may claim their events. */
  noneFor(userId: string): SQL;
  /** A dead letter's replay: the statement making this channel's failed row pending again (null: not its row). */
  revive(kind: DeliveryKind, deliveryId: string, now: number): BatchItem<"sqlite"> | null;
}

export type Notify = (userId: string, message: RealtimeMessage) => Promise<void>;

export interface Clock {
  now(): number;
}


/**
 * Receive SMS picks its upstream per order: the order's provider name (Swift, Dynamic), and the customer's provider set
 * (a sandbox account, test API key, always reaches the simulators: services/kernel/sandbox-accounts.ts providerSetFor).
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
 * (services/kernel/sandbox-accounts.ts providerSetFor); everyone else the deployment's configured one. The calls that
 * have no customer (the country list the web form shows) pass null and get the deployment's own.
 */
export type RentalProviderResolver = (userId: string | null, upstream?: RentUpstream) => RentalProvider;

/**
 * Issue 49: Rent Number routes a rental over the rent upstreams the deployment holds keys for (sms-man first, then
 * HeroSMS, whose documents define extension); `rentUpstreams` lists them for a customer (a sandbox account: the
 * simulators'), and `provider(userId, upstream)` is one of them (absent: sms-man).
 */
export type RentalDeps = MoneyFlowDeps<RentalProviderResolver> & { rentUpstreams: (userId: string | null) => RentUpstream[] };

export interface PaymentDeps extends MoneyFlowDeps<PaymentProviders> {
  /** Keeps best-effort work (realtime pushes) alive after the answer: waitUntil in a request or an object, collected
   *  and awaited by the cron sweep. */
  defer: (work: Promise<unknown>) => void;
}

type Defer = PaymentDeps["defer"];

/**
 * The upstream adapters a container hands out (worker/container.ts builds the real ones from the bindings; a test
 * builds the container with its own: worker/test/services.ts). Services take adapters only from here, never from env
 * (scripts/lint.ts refuses a provider adapter constructor imported under worker/services).
 */
export interface Upstreams {
  /** A provider's primary adapter (its primary upstream's first account), for a provider set's mode (a sandbox
   * account's set reaches the simulators: services/kernel/sandbox-accounts.ts providerSetFor). */
  sms(mode: ProviderMode, name: SmsProviderName): SmsProvider;
  /** One upstream account's adapter (issue 32's routing, issue 30's key pool), for a provider set's mode. */
  smsAccount(mode: ProviderMode, upstream: SmsUpstream, account: number, provider: SmsProviderName): SmsProvider;
  /** A rent upstream (absent: sms-man) for a provider mode (a sandbox account's is always "sandbox"). */
  rent(mode: ProviderMode, upstream?: RentUpstream): RentalProvider;
  /** The rent upstreams configured for a provider mode, in routing order (issue 49). */
  rentUpstreams(mode: ProviderMode): RentUpstream[];
  /** Squad (card and transfers) and NOWPayments, for the deployment's mode. */
  payments(): PaymentProviders;
  /** Where account, reminder and operator e-mail goes (Resend live, the local outbox in sandbox mode). */
  email(): EmailSender;
  /** The developer webhooks' transport (fetch in production); rental forwarding's webhooks go the same way. */
  webhookSend: WebhookSend;
  /** The Telegram Bot API (issue 48): null when the deployment has no bot (TELEGRAM_* unset). */
  telegram(): TelegramBotApi | null;
  /** Web Push to a browser's push service (issue 47); null when the deployment has no VAPID keys. */
  webPush(): WebPushSender | null;
}

/**
 * Which upstreams serve a call (issue 42: chosen in the services container, never by the bindings): the deployment's
 * own (`mode` = PROVIDERS), or the simulators for a sandbox account (test API key) whatever the deployment is. The
 * container hands every service the deployment's set (`providerSet`); `providerSetFor` names a customer's, and every
 * adapter the container builds takes its set's mode explicitly (worker/container.ts, providers/sms/upstreams.ts).
 */
export interface ProviderSet {
  mode: ProviderMode;
  /** A sandbox account's set on a live deployment: its prices are the simulators', kept out of the live history. */
  sandboxAccount: boolean;
}

/** Posts one developer webhook: fetch's shape. */
export type WebhookSend = (url: string, init: RequestInit) => Promise<Response>;

/**
 * The services container (issue 29, docs/decisions/050-services-container.md): everything a command needs, built once
 * per request (app.ts's middleware sets c.var.services), per Durable Object alarm and per cron run by worker/container.ts
 * buildServices, the one place that reads the bindings into dependencies. unkey's apps/api builds its
 * `c.get("services")` the same way. A service takes what it needs from it (or from one of the flows' deps, which are
 * views of it); it never builds an adapter from env, never imports hono, never reads the system's time (its clock is
 * the container's: scripts/lint.ts refuses reading the system time under worker/services).
 */
export interface Services {
  /** The bindings, for what is not a dependency of its own: Durable Object namespaces, the D1 binding's raw form. */
  env: Env;
  /** The configuration read from the bindings once per isolate (config.ts configFor). */
  config: Config;
  db: Db;
  clock: Clock;
  notify: Notify;
  /** Keeps work alive after the answer (the request's or the object's waitUntil; the cron collects and awaits it). */
  defer: Defer;
  /** The request's id for the logs (hono/request-id); null in an alarm or the cron. */
  requestId: string | null;
  upstreams: Upstreams;
  /** The deployment's provider set (a customer's: providerSetFor(providerSet, userId)). */
  providerSet: ProviderSet;
  /** The three money flows' deps and the outbox's, each a view of this container (built on first use). */
  readonly sms: SmsDeps;
  readonly rent: RentalDeps;
  readonly payments: PaymentDeps;
  readonly events: EventDepsOf;
  /** The delivery channels (issue 47: Web Push and forwarding; issue 48: the Telegram bot), as the outbox's delivery gets them. */
  channels: DeliveryChannels;
}

/**
 * What the SMS catalogue reads (services/sms/sms-catalogue.ts): the bindings, the container's adapters it reads the
 * upstream's lists through, and the provider set it reads for (a sandbox account's: the simulators' catalogue). Every
 * flow's deps and the container itself are one; catalogueFor(deps, userId) gives a customer's.
 */
export interface SmsCatalogueDeps {
  env: Env;
  upstreams: Pick<Upstreams, "sms">;
  providerSet: ProviderSet;
}

/** What the outbox's delivery needs, for a caller outside the three flows (an operator's entry, the sweep). */
export type EventDepsOf = Pick<MoneyFlowDeps<unknown>, "env" | "db" | "notify" | "clock" | "channels">;
