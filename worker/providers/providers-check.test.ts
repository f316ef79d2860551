import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { NOWPAYMENTS_SIMULATOR_PATH, nowPaymentsSimulator } from "../sandbox/nowpayments";
import { rentSimulator } from "../sandbox/rent-simulator";
import { RESEND_SIMULATOR_PATH, resendSimulator } from "../sandbox/resend";
import { grizzlySimulator, sandboxGrizzlyKey } from "../sandbox/grizzly-simulator";
import { heroSmsSimulator, sandboxHeroSmsKey } from "../sandbox/herosms-simulator";
import { sandboxSwiftKey, smsActivateSimulator } from "../sandbox/sms-activate-simulator";
import { setSandboxBalance } from "../sandbox/sms-activations";
import { sandboxSmsManToken, smsManSimulator } from "../sandbox/sms-man-simulator";
import { SQUAD_SIMULATOR_PATH, squadSimulator } from "../sandbox/squad";
import { squadTransferSimulator } from "../sandbox/squad-transfers";
import { squadPayoutSimulator } from "../sandbox/squad-payouts";
import { checkProviders, formatProviderTable, isGreen, type CheckedProvider, type ProvidersCheckEnv } from "./providers-check";

/** The check as an operator runs it, with every provider's base URL pointed at our simulators (written from the docs). */
const SIM = "http://sim.test";
const simulators: Record<CheckedProvider, (r: Request) => Promise<Response>> = {
  squad: (r: Request) => Promise.resolve(squadSimulator.fetch(r, env)),
  "squad-transfers": (r: Request) => Promise.resolve(squadTransferSimulator.fetch(r, env)),
  "squad-payouts": (r: Request) => Promise.resolve(squadPayoutSimulator.fetch(r, env)),
  nowpayments: (r: Request) => Promise.resolve(nowPaymentsSimulator.fetch(r, env)),
  resend: (r: Request) => Promise.resolve(resendSimulator.fetch(r, { ...env, RESEND_API_KEY: "re_live_key" })),
  // sms-man's activation API (/control) and rent API (/rent-api) share one host and token; DaisySMS is handler_api.php.
  "sms-man": (r: Request) => Promise.resolve(smsManSimulator.fetch(r, env)),
  "sms-man-rent": (r: Request) => Promise.resolve(rentSimulator.fetch(r, env)),
  daisysms: (r: Request) => Promise.resolve(smsActivateSimulator.fetch(r, env)),
  herosms: (r: Request) => Promise.resolve(heroSmsSimulator.fetch(r, env)),
  "herosms-rent": (r: Request) => Promise.resolve(heroSmsSimulator.fetch(r, env)),
  grizzly: (r: Request) => Promise.resolve(grizzlySimulator.fetch(r, env)),
};
const goodEnv: ProvidersCheckEnv = {
  SQUAD_SECRET_KEY: env.SQUAD_SECRET_KEY,
  SQUAD_BASE_URL: `${SIM}${SQUAD_SIMULATOR_PATH}`,
  SQUAD_MERCHANT_ID: "SBSANDBOX",
  NOWPAYMENTS_API_KEY: env.NOWPAYMENTS_API_KEY,
  NOWPAYMENTS_BASE_URL: `${SIM}${NOWPAYMENTS_SIMULATOR_PATH}`,
  RESEND_API_KEY: "re_live_key",
  RESEND_BASE_URL: `${SIM}${RESEND_SIMULATOR_PATH}`,
  SMSMAN_TOKEN: sandboxSmsManToken(env),
  SMSMAN_BASE_URL: SIM,
  SMSMAN_CURRENCY: "RUB",
  SWIFT_API_KEY: sandboxSwiftKey(env),
  SWIFT_BASE_URL: SIM,
  HEROSMS_API_KEY: sandboxHeroSmsKey(env),
  HEROSMS_BASE_URL: SIM,
  GRIZZLY_API_KEY: sandboxGrizzlyKey(env),
  GRIZZLY_BASE_URL: SIM,
};

describe("npm run providers:check", () => {
  it("is green against the simulators, making only read-only calls, and prints one row per provider", async () => {
    const calls: string[] = [];
    // Mails written from here on (the lane's earlier files wrote theirs, decision 054).
    const mailsBefore = await env.DB.prepare("SELECT COALESCE(MAX(rowid), 0) AS mark FROM email_outbox").first<{ mark: number }>();
    const rows = await checkProviders({
      env: goodEnv,
      fetchFor: (p) => (r) => {
        calls.push(`${p} ${r.method} ${new URL(r.url).pathname}`);
        return simulators[p](r);
      },
    });
    expect(rows.map((r) => [r.provider, isGreen(r)])).toEqual([
      ["Squad (card)", true],
      ["NOWPayments (crypto)", true],
      ["Resend (e-mail)", true],
      ["sms-man (Dynamic SMS)", true],
      ["sms-man rent (Rent Number)", true],
      ["DaisySMS (Swift SMS)", true],
      ["Squad (bank transfer)", true],
      ["HeroSMS (fallback upstream)", true],
      ["Grizzly SMS (fallback upstream)", true],
      ["HeroSMS rent (Rent Number, extendable)", true],
      ["Squad (payouts)", true],
    ]);
    expect(rows[1]!.currency).toContain("USD (6 coins");
    expect(rows[9]).toMatchObject({ balance: expect.stringMatching(/^\d+\.\d\d USD$/), currency: expect.stringMatching(/^USD \(getRentServicesAndCountries USA, 1 day: \d+\.\d\d USD, \d+ numbers\)$/) });
    // The rent row read the rent list only: nothing rented.
    expect(calls.filter((c) => c.startsWith("herosms-rent "))).toHaveLength(2);
    // Each SMS row read our balance there in its own currency, and one price list.
    expect(rows[3]).toMatchObject({ balance: "90000.00 RUB", currency: expect.stringMatching(/^RUB \(get-prices \S.*: \d+ offers in RUB\)$/) });
    expect(rows[4]).toMatchObject({ balance: "90000.00 RUB", currency: expect.stringMatching(/^RUB \(limits: 1 countries, 1 day from \d+\.\d\d RUB\)$/) });
    expect(rows[5]).toMatchObject({ balance: "1000.00 USD", currency: expect.stringMatching(/^USD \(getPrices USA: [1-9]\d* offers\)$/) });
    // Every call reads: GETs, and Squad's payout re-query, a POST that only reads (its document's method).
    expect(calls.filter((c) => !c.startsWith("squad-payouts ")).every((c) => c.includes(" GET "))).toBe(true);
    expect(calls.filter((c) => c.startsWith("squad-payouts "))).toEqual(["squad-payouts POST /sandbox/squad-api/payout/requery"]);
    // Only documented reads reached the SMS upstreams: nothing bought, rented or cancelled.
    const smsCalls = calls.filter((c) => /^(sms-man|sms-man-rent|daisysms) /.test(c));
    expect(smsCalls.map((c) => c.replace(/^\S+ GET /, ""))).toEqual(
      expect.arrayContaining(["/control/get-balance", "/control/countries", "/control/get-prices", "/rent-api/get-balance", "/rent-api/limits"]),
    );
    expect(smsCalls.some((c) => /get-number|set-status|getNumber|setStatus/.test(c))).toBe(false);
    const table = formatProviderTable(rows);
    expect(table.split("\n")[0]).toMatch(/^provider\s+reachable\s+authenticated\s+currency\s+balance\s+what would break$/);
    expect(table).toContain("nothing: OK");
    // Nothing was written by the check: no outbox mail, no Squad transaction.
    const mails = await env.DB.prepare("SELECT count(*) AS n FROM email_outbox WHERE subject LIKE '%check%' AND rowid > ?")
      .bind(mailsBefore?.mark ?? 0)
      .first<{ n: number }>();
    expect(mails?.n).toBe(0);
  });

  it("a bad key makes the provider's row say so (reachable, not authenticated, what breaks), never green", async () => {
    const rows = await checkProviders({
      env: { ...goodEnv, SQUAD_SECRET_KEY: "sandbox_sk_wrong", NOWPAYMENTS_API_KEY: "wrong", RESEND_API_KEY: "re_wrong", SMSMAN_TOKEN: "wrong", SWIFT_API_KEY: "wrong", HEROSMS_API_KEY: "wrong", GRIZZLY_API_KEY: "wrong" },
      fetchFor: (p) => simulators[p],
    });
    for (const row of rows) {
      expect(row.reachable, row.provider).toBe(true);
      expect(row.authenticated, row.provider).toBe(false);
      expect(isGreen(row)).toBe(false);
    }
    expect(rows[0]!.breaks).toBe("card funding: Squad refuses SQUAD_SECRET_KEY (check live vs sandbox key and SQUAD_BASE_URL)");
    expect(rows[1]!.breaks).toBe("crypto funding: NOWPayments refuses NOWPAYMENTS_API_KEY");
    expect(rows[2]!.breaks).toBe("every e-mail: Resend refuses RESEND_API_KEY (invalid_api_key)");
    expect(rows[3]!.breaks).toMatch(/^Dynamic SMS purchases: the upstream refuses SMSMAN_TOKEN \(get-balance: wrong_token/);
    expect(rows[4]!.breaks).toMatch(/^rentals: the upstream refuses SMSMAN_TOKEN \(sms-man: wrong_token/);
    expect(rows[5]!.breaks).toBe("Swift SMS purchases: the upstream refuses SWIFT_API_KEY (getBalance: BAD_KEY)");
    expect(rows[6]!.breaks).toBe("bank transfer funding: Squad refuses SQUAD_SECRET_KEY, or the merchant is not profiled for virtual accounts");
    expect(rows[7]!.breaks).toBe("HeroSMS as a fallback route: the upstream refuses HEROSMS_API_KEY (getBalance: BAD_KEY)");
    expect(rows[8]!.breaks).toBe("Grizzly SMS as a fallback route: the upstream refuses GRIZZLY_API_KEY (getBalance: BAD_KEY)");
    expect(rows[9]!.breaks).toBe("extendable rentals: the upstream refuses HEROSMS_API_KEY (HeroSMS: BAD_KEY)");
    expect(rows[10]!.breaks).toBe("cash out: Squad refuses SQUAD_SECRET_KEY, or the merchant is not enabled for transfers");
    expect(formatProviderTable(rows)).toMatch(/Squad \(card\)\s+yes\s+NO/);
  });

  it("cash out needs SQUAD_MERCHANT_ID in Squad's format, and re-queries only a made-up reference with that prefix (nothing sent)", async () => {
    const calls: string[] = [];
    const missing = await checkProviders({ env: { ...goodEnv, SQUAD_MERCHANT_ID: "" }, fetchFor: (p) => simulators[p] });
    expect(missing[10]).toMatchObject({ provider: "Squad (payouts)", breaks: expect.stringMatching(/^cash out: set SQUAD_MERCHANT_ID/) });
    const ok = await checkProviders({
      env: goodEnv,
      fetchFor: (p) => async (r) => {
        if (p === "squad-payouts") calls.push(`${r.method} ${new URL(r.url).pathname} ${await r.clone().text()}`);
        return simulators[p](r);
      },
    });
    expect(isGreen(ok[10]!)).toBe(true);
    expect(calls).toEqual([expect.stringMatching(/^POST \/sandbox\/squad-api\/payout\/requery \{"transaction_reference":"SBSANDBOX_CHECK[A-Z0-9]+"\}$/)]);
  });

  it("a sending-only Resend key is enough; a missing key and an unreachable host say what breaks", async () => {
    const rows = await checkProviders({
      env: { ...goodEnv, RESEND_API_KEY: "re_send_re_live_key", SQUAD_SECRET_KEY: "" },
      fetchFor: (p) => (p === "nowpayments" ? () => Promise.reject(new TypeError("getaddrinfo ENOTFOUND")) : simulators[p]),
    });
    expect(rows[0]).toMatchObject({ authenticated: null, breaks: "card funding: SQUAD_SECRET_KEY is not set" });
    expect(rows[6]).toMatchObject({ authenticated: null, breaks: "bank transfer funding: SQUAD_SECRET_KEY is not set" });
    expect(rows[10]).toMatchObject({ authenticated: null, breaks: "cash out: SQUAD_SECRET_KEY is not set" });
    expect(rows[1]).toMatchObject({ reachable: false, breaks: expect.stringContaining("crypto funding: NOWPayments is unreachable") });
    expect(rows[2]).toMatchObject({ reachable: true, authenticated: true, balance: "sending-only key", breaks: "" });
  });

  it("the Resend simulator is as strict as Resend: no User-Agent is 403 error 1010, missing fields are 422", async () => {
    const bare = await simulators.resend(new Request(`${SIM}${RESEND_SIMULATOR_PATH}/emails`, { method: "POST", headers: { authorization: "Bearer re_live_key" }, body: "{}" }));
    expect(bare.status).toBe(403);
    expect(await bare.text()).toBe("error code: 1010");
    const noTo = await simulators.resend(
      new Request(`${SIM}${RESEND_SIMULATOR_PATH}/emails`, {
        method: "POST",
        headers: { authorization: "Bearer re_live_key", "user-agent": "test/1", "content-type": "application/json" },
        body: JSON.stringify({ from: "a@app.test", subject: "Hi", text: "x" }),
      }),
    );
    expect(noTo.status).toBe(422);
    expect(await noTo.json()).toMatchObject({ name: "validation_error" });
  });
});

describe("npm run providers:check, SMS upstream rows", () => {
  it("one bad key turns only its own row red, with what breaks; the others stay green", async () => {
    const rows = await checkProviders({ env: { ...goodEnv, SWIFT_API_KEY: "not-the-key" }, fetchFor: (p) => simulators[p] });
    expect(rows.filter((r) => !isGreen(r)).map((r) => r.provider)).toEqual(["DaisySMS (Swift SMS)"]);
    expect(rows[5]).toMatchObject({ reachable: true, authenticated: false, balance: "n/a" });
    expect(formatProviderTable(rows)).toMatch(/DaisySMS \(Swift SMS\)\s+yes\s+NO\s+USD\s+n\/a\s+Swift SMS purchases: the upstream refuses SWIFT_API_KEY/);
  });

  it("a missing key, an unreachable host and an empty balance each say what would break", async () => {
    await setSandboxBalance(env, "swift", 0);
    try {
      const rows = await checkProviders({
        env: { ...goodEnv, SMSMAN_TOKEN: "" },
        fetchFor: (p) => (p === "daisysms" ? simulators[p] : () => Promise.reject(new TypeError("getaddrinfo ENOTFOUND"))),
      });
      expect(rows[3]).toMatchObject({ authenticated: null, breaks: "Dynamic SMS purchases: SMSMAN_TOKEN is not set" });
      expect(rows[4]).toMatchObject({ authenticated: null, breaks: "rentals: SMSMAN_TOKEN is not set" });
      expect(rows[5]).toMatchObject({
        reachable: true,
        authenticated: true,
        balance: "0.00 USD",
        breaks: "Swift SMS purchases: our balance there is 0.00 USD (top it up: every purchase would be refused)",
      });
      expect(isGreen(rows[5]!)).toBe(false);
      const unreachable = await checkProviders({ env: goodEnv, fetchFor: () => () => Promise.reject(new TypeError("getaddrinfo ENOTFOUND")) });
      for (const row of unreachable.slice(3, 6)) {
        expect(row, row.provider).toMatchObject({ reachable: false, authenticated: null, breaks: expect.stringContaining(": unreachable (unavailable") });
      }
      expect(unreachable[6]).toMatchObject({ reachable: false, authenticated: null, breaks: expect.stringContaining("bank transfer funding: Squad is unreachable") });
    } finally {
      await setSandboxBalance(env, "swift", 1000);
    }
  });
});

describe("npm run providers:check, the SMS-Activate family's fallback upstreams (issue 32)", () => {
  it("an upstream without a key is listed as never routed to, not red; each account of a pool is read", async () => {
    const rows = await checkProviders({ env: { ...goodEnv, HEROSMS_API_KEY: "", GRIZZLY_API_KEY: `${sandboxGrizzlyKey(env)}, ${sandboxGrizzlyKey(env)}` }, fetchFor: (p) => simulators[p] });
    expect(rows[7]).toMatchObject({ skipped: true, balance: "not configured (HEROSMS_API_KEY unset): never routed to" });
    expect(isGreen(rows[7]!)).toBe(true);
    expect(rows[9]).toMatchObject({ skipped: true, balance: "not configured (HEROSMS_API_KEY unset): rentals stay on sms-man, none extendable" });
    expect(isGreen(rows[9]!)).toBe(true);
    expect(rows[8]).toMatchObject({ reachable: true, authenticated: true, balance: "#1 1000.00 USD, #2 1000.00 USD", currency: expect.stringMatching(/^USD \(getPrices USA: [1-9]\d* offers\)$/), breaks: "" });
  });

  it("Grizzly's documented region refusal and an empty HeroSMS balance say what would break", async () => {
    await setSandboxBalance(env, "herosms", 0);
    try {
      const rows = await checkProviders({ env: { ...goodEnv, GRIZZLY_API_KEY: "region-blocked" }, fetchFor: (p) => simulators[p] });
      expect(rows[7]).toMatchObject({ breaks: "account #1: HeroSMS as a fallback route: our balance there is 0.00 USD (top it up: every purchase would be refused)" });
      expect(rows[8]).toMatchObject({ authenticated: false, breaks: expect.stringContaining("refuses GRIZZLY_API_KEY (getBalance: SERVICE_UNAVAILABLE_REGION)") });
      expect(rows.slice(7, 10).some(isGreen)).toBe(false);
    } finally {
      await setSandboxBalance(env, "herosms", 1000);
    }
  });
});
