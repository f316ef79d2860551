import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { NOWPAYMENTS_SIMULATOR_PATH, nowPaymentsSimulator } from "../sandbox/nowpayments";
import { RESEND_SIMULATOR_PATH, resendSimulator } from "../sandbox/resend";
import { SQUAD_SIMULATOR_PATH, squadSimulator } from "../sandbox/squad";
import { checkProviders, formatProviderTable, isGreen, type ProvidersCheckEnv } from "./providers-check";

/** The check as an operator runs it, with every provider's base URL pointed at our simulators (written from the docs). */
const SIM = "http://sim.test";
const simulators = {
  squad: (r: Request) => Promise.resolve(squadSimulator.fetch(r, env)),
  nowpayments: (r: Request) => Promise.resolve(nowPaymentsSimulator.fetch(r, env)),
  resend: (r: Request) => Promise.resolve(resendSimulator.fetch(r, { ...env, RESEND_API_KEY: "re_live_key" })),
};
const goodEnv: ProvidersCheckEnv = {
  SQUAD_SECRET_KEY: env.SQUAD_SECRET_KEY,
  SQUAD_BASE_URL: `${SIM}${SQUAD_SIMULATOR_PATH}`,
  NOWPAYMENTS_API_KEY: env.NOWPAYMENTS_API_KEY,
  NOWPAYMENTS_BASE_URL: `${SIM}${NOWPAYMENTS_SIMULATOR_PATH}`,
  RESEND_API_KEY: "re_live_key",
  RESEND_BASE_URL: `${SIM}${RESEND_SIMULATOR_PATH}`,
};

describe("npm run providers:check", () => {
  it("is green against the simulators, making only read-only calls, and prints one row per provider", async () => {
    const calls: string[] = [];
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
    ]);
    expect(rows[1]!.currency).toContain("USD (6 coins");
    expect(calls.every((c) => c.includes(" GET "))).toBe(true);
    const table = formatProviderTable(rows);
    expect(table.split("\n")[0]).toMatch(/^provider\s+reachable\s+authenticated\s+currency\s+balance\s+what would break$/);
    expect(table).toContain("nothing: OK");
    // Nothing was written by the check: no outbox mail, no Squad transaction.
    const mails = await env.DB.prepare("SELECT count(*) AS n FROM email_outbox WHERE subject LIKE '%check%'").first<{ n: number }>();
    expect(mails?.n).toBe(0);
  });

  it("a bad key makes the provider's row say so (reachable, not authenticated, what breaks), never green", async () => {
    const rows = await checkProviders({
      env: { ...goodEnv, SQUAD_SECRET_KEY: "sandbox_sk_wrong", NOWPAYMENTS_API_KEY: "wrong", RESEND_API_KEY: "re_wrong" },
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
    expect(formatProviderTable(rows)).toMatch(/Squad \(card\)\s+yes\s+NO/);
  });

  it("a sending-only Resend key is enough; a missing key and an unreachable host say what breaks", async () => {
    const rows = await checkProviders({
      env: { ...goodEnv, RESEND_API_KEY: "re_send_re_live_key", SQUAD_SECRET_KEY: "" },
      fetchFor: (p) => (p === "nowpayments" ? () => Promise.reject(new TypeError("getaddrinfo ENOTFOUND")) : simulators[p]),
    });
    expect(rows[0]).toMatchObject({ authenticated: null, breaks: "card funding: SQUAD_SECRET_KEY is not set" });
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
