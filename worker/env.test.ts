import { describe, expect, it } from "vitest";
import { loadConfig, type Env } from "./env";

const secrets = {
  JWT_SECRET: "a-long-enough-jwt-secret",
  SQUAD_SECRET_KEY: "sk",
  NOWPAYMENTS_API_KEY: "nk",
  NOWPAYMENTS_IPN_SECRET: "ipn",
  SMSMAN_TOKEN: "sm",
  SWIFT_API_KEY: "sw",
  RESEND_API_KEY: "re",
};
const env = (vars: Partial<Env>) => vars as Env;

describe("configuration", () => {
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
    expect(loadConfig(env({ APP_ENV: "development", PROVIDERS: "sandbox", JWT_SECRET: secrets.JWT_SECRET })).providers).toBe("sandbox");
    expect(() => loadConfig(env({ APP_ENV: "development", PROVIDERS: "sandbox", JWT_SECRET: "short" }))).toThrow(/JWT_SECRET/);
    expect(() => loadConfig(env({ APP_ENV: "development", PROVIDERS: "mock", JWT_SECRET: secrets.JWT_SECRET }))).toThrow(/PROVIDERS must be/);
  });
});
