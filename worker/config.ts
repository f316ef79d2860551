import { z } from "zod";
import { ownWebClient, parsePublicUrl, parseWebClientUrl, type WebClient } from "./lib/public-origin";
import { memoizeByObject } from "./lib/cache";
import type { TelegramConfig } from "./providers/telegram/bot-api";

export type { TelegramConfig };
import { SANDBOX_VAPID_KEYS, vapidKeyProblem, type VapidKeys } from "./providers/push/vapid";

/**
 * What the worker receives. The bindings (D1, assets, Durable Objects) and wrangler.toml's [vars] are typed by
 * `wrangler types` in ../worker-configuration.d.ts (regenerate with `npm run types`; the lint fails when it is stale).
 * Secrets and optional variables live in .dev.vars locally and `wrangler secret put` live, which wrangler.toml cannot
 * declare: they are here, optional, because a deployment may lack them (loadConfig says which).
 */
export interface Env extends Cloudflare.Env, Secrets {}

/** Secrets and variables wrangler.toml does not declare; optional because a deployment may lack them. */
export interface Secrets {
  /** Set to "true" to run production on sandbox providers or with missing secrets (a staging demo). */
  ALLOW_INSECURE_PRODUCTION?: string;
  /**
   * The origin customers reach us at (https://app.example.ng): every link and callback URL (reset and referral links,
   * Squad's callback, NOWPayments' IPN URL, e-mails) is built from it and never from a request header. Required;
   * `npm start` sets it from PORT.
   */
  PUBLIC_URL?: string;
  /** Extra allowed CORS origins, comma separated (the app itself is same-origin). */
  CORS_ORIGINS?: string;
  /**
   * The web client every link we hand out or e-mail opens (checkout return, referral, reset, verification, ads, reminders):
   * `https://client.example.ng/#/` (hash routing) or `https://client.example.ng/` (path routing). Default: ours,
   * `PUBLIC_URL/#/`. Its origin must be PUBLIC_URL's or listed in CORS_ORIGINS (decision 032).
   */
  WEB_CLIENT_URL?: string;
  JWT_SECRET?: string;
  SQUAD_SECRET_KEY?: string;
  /** Squad's merchant ID: every payout reference starts with it ("SBABCKDY_…", Squad's Transfer API). */
  SQUAD_MERCHANT_ID?: string;
  NOWPAYMENTS_API_KEY?: string;
  NOWPAYMENTS_IPN_SECRET?: string;
  SMSMAN_TOKEN?: string;
  /** The sms-man account's currency (RUB, USD or EUR; default RUB): how its prices and balance are read. */
  SMSMAN_CURRENCY?: string;
  /** DaisySMS keys: one, or several comma-separated (each its own account: own balance, own 20 slots; issue 30). */
  SWIFT_API_KEY?: string;
  /**
   * More upstreams of the SMS-Activate protocol family (issue 32), optional: an upstream without a key is never routed
   * to. Keys as SWIFT_API_KEY (comma-separated accounts); base URLs default to the documented ones
   * (providers/sms/sms-activate-profiles.ts); GRIZZLY_CURRENCY says what its prices are in (default USD).
   */
  /**
   * "on" when DaisySMS's profile has our webhook (PUBLIC_URL/api/webhooks/sms/swift) set, so it pushes each code as it
   * lands (https://daisysms.com/docs/api, webhooks): its orders' polls are then only a fallback on a wider schedule
   * (services/sms/poll-plan.ts, decision 051). Off (or absent): polled every tick as before.
   */
  SWIFT_WEBHOOK?: string;
  HEROSMS_API_KEY?: string;
  HEROSMS_BASE_URL?: string;
  GRIZZLY_API_KEY?: string;
  GRIZZLY_BASE_URL?: string;
  GRIZZLY_CURRENCY?: string;
  RESEND_API_KEY?: string;
  /**
   * Web Push (issue 47, decision 069): our VAPID key pair (RFC 8292), base64url, the public key uncompressed (65
   * octets: what browsers subscribe with) and the private scalar (32 octets). `npx tsx scripts/vapid-keys.ts` makes a
   * pair. Sandbox mode without them uses a published sandbox pair (providers/push/vapid.ts), refused in production.
   */
  VAPID_PUBLIC_KEY?: string;
  VAPID_PRIVATE_KEY?: string;
  /** RFC 8292 §2.1 `sub`: how a push service reaches us (mailto: or https:). Default: mailto: EMAIL_FROM's address. */
  VAPID_SUBJECT?: string;
  SANDBOX_SMS_DELAY_MS?: string;
  /** Benchmarks only: each sandbox SMS code arrives up to this much later than SANDBOX_SMS_DELAY_MS, at random. */
  SANDBOX_SMS_DELAY_JITTER_MS?: string;
  /** Benchmarks only (never production): answer each request with its D1 round-trip count in x-d1-round-trips. */
  D1_METRICS?: string;
  /**
   * The Telegram bot (issue 48, decision 070): BotFather's token, the secret Telegram echoes in
   * X-Telegram-Bot-Api-Secret-Token on every webhook call (setWebhook's secret_token), and the bot's @username (the
   * t.me link). All three or none: without them the bot's routes are absent (404) and nothing is sent to Telegram.
   */
  TELEGRAM_BOT_TOKEN?: string;
  TELEGRAM_WEBHOOK_SECRET?: string;
  TELEGRAM_BOT_USERNAME?: string;
}

const REQUIRED_SECRETS = [
  "JWT_SECRET",
  "SQUAD_SECRET_KEY",
  "NOWPAYMENTS_API_KEY",
  "NOWPAYMENTS_IPN_SECRET",
  "SMSMAN_TOKEN",
  "SWIFT_API_KEY",
  "RESEND_API_KEY",
  "VAPID_PUBLIC_KEY",
  "VAPID_PRIVATE_KEY",
] as const;

export type ProviderMode = "sandbox" | "live";

export interface Config {
  production: boolean;
  providers: ProviderMode;
  jwtSecret: Uint8Array;
  /** PUBLIC_URL as an origin (scheme, host, port; no trailing slash). */
  publicUrl: string;
  /** WEB_CLIENT_URL read: where links open (lib/public-origin.ts webLink). Never from a request. */
  webClient: WebClient;
  /** Origins a browser may call the API from: PUBLIC_URL's and CORS_ORIGINS'. */
  corsOrigins: string[];
  sandboxSmsDelayMs: number;
  /** The Telegram bot, or null when the deployment has none (its routes are then absent). */
  telegram: TelegramConfig | null;
  /** Web Push's keys and contact (null: this deployment cannot push; Settings says so). */
  vapid: VapidKeys | null;
}


const modeSchema = z.enum(["sandbox", "live"]);

/**
 * Reads the configuration once per isolate and refuses to run a production deployment on sandbox providers or with a
 * missing secret, unless ALLOW_INSECURE_PRODUCTION=true says so explicitly. The message names what is wrong, never a value.
 */
export function loadConfig(env: Env): Config {
  const production = (env.APP_ENV ?? "production") === "production";
  const parsedMode = modeSchema.safeParse(env.PROVIDERS ?? "live");
  if (!parsedMode.success) throw new ConfigError(`PROVIDERS must be "sandbox" or "live", not "${env.PROVIDERS}"`);
  const providers = parsedMode.data;
  const allowInsecure = env.ALLOW_INSECURE_PRODUCTION === "true";
  if (production && !allowInsecure) {
    if (providers === "sandbox") {
      throw new ConfigError(
        "Refusing to start: APP_ENV=production with PROVIDERS=sandbox. Use live providers, or set ALLOW_INSECURE_PRODUCTION=true for a demo.",
      );
    }
    const missing = REQUIRED_SECRETS.filter((name) => !env[name]);
    if (missing.length > 0) {
      throw new ConfigError(
        `Refusing to start: missing secret(s) ${missing.join(", ")}. Set them with \`wrangler secret put NAME\`, or set ALLOW_INSECURE_PRODUCTION=true.`,
      );
    }
  }
  if (!env.JWT_SECRET || env.JWT_SECRET.length < 16) {
    throw new ConfigError("Refusing to start: JWT_SECRET is missing or shorter than 16 characters.");
  }
  const publicUrl = parsePublicUrl(env.PUBLIC_URL);
  if (!publicUrl) {
    // Issue 12: a link built from the Host header let a forged Host mail a victim a reset link to another site.
    throw new ConfigError(
      "Refusing to start: PUBLIC_URL is missing or not an http(s) URL. Set it to the origin customers use (e.g. https://app.example.ng); `npm start` sets it from PORT.",
    );
  }
  if (production && !allowInsecure && !publicUrl.startsWith("https://")) {
    throw new ConfigError("Refusing to start: APP_ENV=production needs an https PUBLIC_URL, or ALLOW_INSECURE_PRODUCTION=true.");
  }
  const corsOrigins = [publicUrl, ...corsOriginsOf(env.CORS_ORIGINS)];
  const webClient = parseWebClientUrl(env.WEB_CLIENT_URL) ?? ownWebClient(publicUrl);
  if (typeof webClient === "string") throw new ConfigError(`Refusing to start: ${webClient}. Example: https://client.example.ng/#/ or https://client.example.ng/`);
  if (!corsOrigins.includes(webClient.origin)) {
    // A client on an origin the API refuses could not call us: its customers would land on a page that cannot load.
    throw new ConfigError(`Refusing to start: WEB_CLIENT_URL's origin ${webClient.origin} is not PUBLIC_URL and not in CORS_ORIGINS. Add it to CORS_ORIGINS.`);
  }
  if (production && !allowInsecure && !webClient.origin.startsWith("https://")) {
    throw new ConfigError("Refusing to start: APP_ENV=production needs an https WEB_CLIENT_URL, or ALLOW_INSECURE_PRODUCTION=true.");
  }
  const delay = Number(env.SANDBOX_SMS_DELAY_MS ?? "10000");
  const telegram = telegramConfigOf(env);
  return {
    vapid: vapidOf(env, providers),
    production,
    providers,
    jwtSecret: new TextEncoder().encode(env.JWT_SECRET),
    publicUrl,
    webClient,
    corsOrigins,
    sandboxSmsDelayMs: Number.isFinite(delay) && delay >= 0 ? delay : 10000,
    telegram,
  };
}

/**
 * The bot's three settings, all or none. The token is BotFather's `<bot id>:<secret>`; the webhook secret is what
 * setWebhook accepts as secret_token (1-256 of A-Z, a-z, 0-9, _ and -: https://core.telegram.org/bots/api#setwebhook),
 * of which we ask at least 32 so it cannot be guessed; a bot's username ends in "bot" (BotFather's rule). A value that
 * does not fit refuses to start, naming the variable, never the value.
 */
function telegramConfigOf(env: Env): TelegramConfig | null {
  const token = env.TELEGRAM_BOT_TOKEN?.trim();
  const webhookSecret = env.TELEGRAM_WEBHOOK_SECRET?.trim();
  const botUsername = env.TELEGRAM_BOT_USERNAME?.trim().replace(/^@/, "");
  if (!token && !webhookSecret && !botUsername) return null;
  const missing = [!token && "TELEGRAM_BOT_TOKEN", !webhookSecret && "TELEGRAM_WEBHOOK_SECRET", !botUsername && "TELEGRAM_BOT_USERNAME"].filter(Boolean);
  if (missing.length > 0) throw new ConfigError(`Refusing to start: the Telegram bot needs ${missing.join(", ")} as well (all three, or none for no bot).`);
  const id = /^(\d{1,20}):[A-Za-z0-9_-]{20,}$/.exec(token!);
  if (!id) throw new ConfigError("Refusing to start: TELEGRAM_BOT_TOKEN is not a bot token from BotFather (<bot id>:<secret>).");
  if (!/^[A-Za-z0-9_-]{32,256}$/.test(webhookSecret!)) {
    throw new ConfigError("Refusing to start: TELEGRAM_WEBHOOK_SECRET must be 32 to 256 characters of A-Z, a-z, 0-9, _ and - (Telegram's secret_token).");
  }
  if (!/^[A-Za-z][A-Za-z0-9_]{3,31}$/.test(botUsername!) || !/bot$/i.test(botUsername!)) {
    throw new ConfigError("Refusing to start: TELEGRAM_BOT_USERNAME is not a bot's username (5-32 characters, ending in \"bot\").");
  }
  return { token: token!, webhookSecret: webhookSecret!, botUsername: botUsername!, botId: Number(id[1]) };
}

/**
 * The VAPID keys: the deployment's own, checked for shape (a key pasted wrong fails at start, not at the first push);
 * in sandbox mode without them the sandbox pair; otherwise none.
 */
function vapidOf(env: Env, providers: ProviderMode): VapidKeys | null {
  const subject = env.VAPID_SUBJECT?.trim() || `mailto:${/<([^>]+)>/.exec(env.EMAIL_FROM ?? "")?.[1] ?? env.EMAIL_FROM ?? "no-reply@example.com"}`;
  if (!/^(mailto:\S+@\S+|https:\/\/\S+)$/.test(subject)) throw new ConfigError("Refusing to start: VAPID_SUBJECT must be a mailto: address or an https: URL (RFC 8292 §2.1).");
  if (!env.VAPID_PUBLIC_KEY && !env.VAPID_PRIVATE_KEY) return providers === "sandbox" ? { ...SANDBOX_VAPID_KEYS, subject } : null;
  const keys = { publicKey: env.VAPID_PUBLIC_KEY?.trim() ?? "", privateKey: env.VAPID_PRIVATE_KEY?.trim() ?? "", subject };
  const problem = vapidKeyProblem(keys);
  if (problem) throw new ConfigError(`Refusing to start: ${problem} Make a pair with \`npx tsx scripts/vapid-keys.ts\`.`);
  if (keys.publicKey === SANDBOX_VAPID_KEYS.publicKey && providers === "live") throw new ConfigError("Refusing to start: the VAPID keys are the published sandbox pair; make your own.");
  return keys;
}

/** CORS_ORIGINS as origins (each entry read as a URL's origin, so "https://x.ng/" and "https://x.ng" are one). */
function corsOriginsOf(configured: string | undefined): string[] {
  return (configured ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => parsePublicUrl(s) ?? s);
}

/** loadConfig once per env object (an isolate's bindings), for the app, the Durable Objects, the rooms and the sweep. */
export const configFor: (env: Env) => Config = memoizeByObject(loadConfig);

export class ConfigError extends Error {
  override name = "ConfigError";
}
