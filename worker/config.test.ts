import { describe, expect, it } from "vitest";
import { loadConfig, type Env } from "./config";

const secrets = {
  JWT_SECRET: "a-long-enough-jwt-secret",
  SQUAD_SECRET_KEY: "sk",
  NOWPAYMENTS_API_KEY: "nk",
  NOWPAYMENTS_IPN_SECRET: "ipn",
  SMSMAN_TOKEN: "sm",
  SWIFT_API_KEY: "sw",
  RESEND_API_KEY: "re",
  VAPID_PUBLIC_KEY: "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4",
  VAPID_PRIVATE_KEY: "q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94",
  PUBLIC_URL: "https://app.example.ng",
};
const env = (vars: Partial<Env>) => vars as Env;

describe("configuration", () => {
  it("the Telegram bot (issue 48): all three of its values or none; a partial or malformed set refuses to start, naming no value", () => {
    const bot = { TELEGRAM_BOT_TOKEN: "123456:AAbbCCddEEffGGhhIIjjKK_-", TELEGRAM_WEBHOOK_SECRET: "s".repeat(32), TELEGRAM_BOT_USERNAME: "@VirtualNumBot" };
    const base = { ...secrets, APP_ENV: "development", PROVIDERS: "sandbox" } as const;
    expect(loadConfig(env(base)).telegram).toBeNull();
    expect(loadConfig(env({ ...base, ...bot })).telegram).toEqual({ token: bot.TELEGRAM_BOT_TOKEN, webhookSecret: bot.TELEGRAM_WEBHOOK_SECRET, botUsername: "VirtualNumBot", botId: 123456 });
    expect(() => loadConfig(env({ ...base, TELEGRAM_BOT_TOKEN: bot.TELEGRAM_BOT_TOKEN }))).toThrow(/needs TELEGRAM_WEBHOOK_SECRET, TELEGRAM_BOT_USERNAME as well/);
    const refusals: [Partial<typeof bot>, RegExp][] = [
      [{ TELEGRAM_BOT_TOKEN: "not-a-token" }, /TELEGRAM_BOT_TOKEN is not a bot token/],
      [{ TELEGRAM_WEBHOOK_SECRET: "short" }, /TELEGRAM_WEBHOOK_SECRET must be 32 to 256/],
      [{ TELEGRAM_WEBHOOK_SECRET: `${"s".repeat(32)}!` }, /TELEGRAM_WEBHOOK_SECRET must be/],
      [{ TELEGRAM_BOT_USERNAME: "VirtualNum" }, /TELEGRAM_BOT_USERNAME is not a bot's username/],
    ];
    for (const [change, message] of refusals) {
      let text = "";
      try {
        loadConfig(env({ ...base, ...bot, ...change }));
      } catch (err) {
        text = (err as Error).message;
      }
      expect(text).toMatch(message);
      for (const value of Object.values(change)) expect(text).not.toContain(value);
    }
  });

  it("production refuses sandbox providers unless explicitly allowed", () => {
    expect(() => loadConfig(env({ ...secrets, APP_ENV: "production", PROVIDERS: "sandbox" }))).toThrow(/PROVIDERS=sandbox/);
    expect(loadConfig(env({ ...secrets, APP_ENV: "production", PROVIDERS: "sandbox", ALLOW_INSECURE_PRODUCTION: "true" })).providers).toBe("sandbox");
  });

  it("production refuses a missing secret and names it, never a value", () => {
    const { SQUAD_SECRET_KEY: _omit, ...rest } = secrets;
    let message = "";
    try {
      loadConfig(env({ ...rest, APP_ENV: "production", PROVIDERS: "live" }));
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toMatch(/missing secret\(s\) SQUAD_SECRET_KEY/);
    expect(message).not.toContain(secrets.JWT_SECRET);
  });

  it("production with live providers and every secret starts", () => {
    const config = loadConfig(env({ ...secrets, APP_ENV: "production", PROVIDERS: "live" }));
    expect(config).toMatchObject({ production: true, providers: "live" });
  });

  it("development runs on the sandbox with only a JWT secret; a short JWT secret is refused everywhere", () => {
    const local = { APP_ENV: "development", PROVIDERS: "sandbox", PUBLIC_URL: "http://127.0.0.1:8787" };
    expect(loadConfig(env({ ...local, JWT_SECRET: secrets.JWT_SECRET })).providers).toBe("sandbox");
    expect(() => loadConfig(env({ ...local, JWT_SECRET: "short" }))).toThrow(/JWT_SECRET/);
    expect(() => loadConfig(env({ ...local, PROVIDERS: "mock", JWT_SECRET: secrets.JWT_SECRET }))).toThrow(/PROVIDERS must be/);
  });

  it("links come from PUBLIC_URL only: production refuses to start without it (even a demo), or on plain http", () => {
    const { PUBLIC_URL: _omit, ...noUrl } = secrets;
    expect(() => loadConfig(env({ ...noUrl, APP_ENV: "production", PROVIDERS: "live" }))).toThrow(/PUBLIC_URL is missing/);
    expect(() => loadConfig(env({ ...noUrl, APP_ENV: "production", PROVIDERS: "sandbox", ALLOW_INSECURE_PRODUCTION: "true" }))).toThrow(/PUBLIC_URL/);
    expect(() => loadConfig(env({ ...secrets, PUBLIC_URL: "javascript:alert(1)", APP_ENV: "production", PROVIDERS: "live" }))).toThrow(/PUBLIC_URL/);
    expect(() => loadConfig(env({ ...secrets, PUBLIC_URL: "http://app.example.ng", APP_ENV: "production", PROVIDERS: "live" }))).toThrow(/https PUBLIC_URL/);
    // Locally too: there is no request-header fallback to fall back on (`npm start` sets it from PORT).
    expect(() => loadConfig(env({ APP_ENV: "development", PROVIDERS: "sandbox", JWT_SECRET: secrets.JWT_SECRET }))).toThrow(/PUBLIC_URL/);
  });

  it("PUBLIC_URL is kept as an origin: no trailing slash or path", () => {
    const config = loadConfig(env({ ...secrets, PUBLIC_URL: "https://app.example.ng/", APP_ENV: "production", PROVIDERS: "live" }));
    expect(config.publicUrl).toBe("https://app.example.ng");
  });

  it("WEB_CLIENT_URL (decision 032): one setting for the web client's origin and routing, ours by default", () => {
    const live = { ...secrets, APP_ENV: "production", PROVIDERS: "live" };
    expect(loadConfig(env(live)).webClient).toEqual({ base: "https://app.example.ng/#/", origin: "https://app.example.ng", routing: "hash" });
    const path = loadConfig(env({ ...live, WEB_CLIENT_URL: "https://client.example.ng", CORS_ORIGINS: "https://client.example.ng/" }));
    expect(path.webClient).toEqual({ base: "https://client.example.ng/", origin: "https://client.example.ng", routing: "path" });
    expect(path.corsOrigins).toEqual(["https://app.example.ng", "https://client.example.ng"]);
    const prefixed = loadConfig(env({ ...live, WEB_CLIENT_URL: "https://client.example.ng/app/#/", CORS_ORIGINS: "https://client.example.ng" }));
    expect(prefixed.webClient).toEqual({ base: "https://client.example.ng/app/#/", origin: "https://client.example.ng", routing: "hash" });
  });

  it("WEB_CLIENT_URL is refused at load when its origin is not allowed by CORS, it is not http(s), or its hash is not #/", () => {
    const live = { ...secrets, APP_ENV: "production", PROVIDERS: "live" };
    expect(() => loadConfig(env({ ...live, WEB_CLIENT_URL: "https://client.example.ng/" }))).toThrow(/not PUBLIC_URL and not in CORS_ORIGINS/);
    expect(() => loadConfig(env({ ...live, WEB_CLIENT_URL: "javascript:alert(1)" }))).toThrow(/WEB_CLIENT_URL/);
    expect(() => loadConfig(env({ ...live, WEB_CLIENT_URL: "https://client.example.ng/#!/", CORS_ORIGINS: "https://client.example.ng" }))).toThrow(/hash/);
    expect(() => loadConfig(env({ ...live, WEB_CLIENT_URL: "https://client.example.ng/?x=1", CORS_ORIGINS: "https://client.example.ng" }))).toThrow(/query/);
    expect(() => loadConfig(env({ ...live, WEB_CLIENT_URL: "http://client.example.ng/", CORS_ORIGINS: "http://client.example.ng" }))).toThrow(/https WEB_CLIENT_URL/);
  });

  it("Web Push's VAPID keys (issue 47): required live, checked for shape at start, the sandbox pair only in sandbox mode", () => {
    const live = { ...secrets, APP_ENV: "production", PROVIDERS: "live" };
    expect(loadConfig(env({ ...live, EMAIL_FROM: "VirtualNum <hello@virtualnum.ng>" })).vapid).toEqual({
      publicKey: secrets.VAPID_PUBLIC_KEY,
      privateKey: secrets.VAPID_PRIVATE_KEY,
      subject: "mailto:hello@virtualnum.ng",
    });
    const { VAPID_PRIVATE_KEY: _omit, ...withoutPrivate } = live;
    expect(() => loadConfig(env(withoutPrivate))).toThrow(/missing secret\(s\) VAPID_PRIVATE_KEY/);
    expect(() => loadConfig(env({ ...live, VAPID_PUBLIC_KEY: "BAAA" }))).toThrow(/VAPID_PUBLIC_KEY must be an uncompressed P-256 public key/);
    expect(() => loadConfig(env({ ...live, VAPID_SUBJECT: "someone" }))).toThrow(/VAPID_SUBJECT/);
    const local = { APP_ENV: "development", PROVIDERS: "sandbox", PUBLIC_URL: "http://127.0.0.1:8787", JWT_SECRET: secrets.JWT_SECRET };
    expect(loadConfig(env(local)).vapid?.publicKey).toMatch(/^BFren02d/);
    expect(loadConfig(env({ ...local, PROVIDERS: "live" })).vapid).toBeNull();
  });
});
