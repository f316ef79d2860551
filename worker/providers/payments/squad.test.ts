import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { UpstreamFault } from "../upstream-http";
import { createSquadClient } from "./squad";

/** A purpose-built fake of Squad's API: records what it was asked and answers what the test scripts. */
function fakeSquad(reply: (path: string, body: unknown) => Response | Promise<Response>) {
  const seen: { path: string; auth: string | undefined; body: unknown }[] = [];
  const app = new Hono();
  app.all("*", async (c) => {
    const text = c.req.method === "POST" ? await c.req.text() : "";
    const body = text ? JSON.parse(text) : null;
    seen.push({ path: new URL(c.req.url).pathname, auth: c.req.header("authorization"), body });
    return reply(new URL(c.req.url).pathname, body);
  });
  const client = createSquadClient({ baseUrl: "https://squad.test/", secretKey: "sk_fake", fetch: (r) => Promise.resolve(app.fetch(r)), timeoutMs: 200 });
  return { client, seen };
}

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

describe("Squad adapter", () => {
  it("initiates a checkout with the documented request (kobo, NGN, inline, our ref, callback) and reads checkout_url", async () => {
    const { client, seen } = fakeSquad(() =>
      json({ status: 200, success: true, message: "success", data: { checkout_url: "https://sandbox-pay.squadco.com/REF1", transaction_ref: "REF1" } }),
    );
    const out = await client.initiate({ amountKobo: 500_000, email: "a@b.co", transactionRef: "REF1", callbackUrl: "https://app.test/#/dashboard/1?reference=REF1" });
    expect(out).toEqual({ checkoutUrl: "https://sandbox-pay.squadco.com/REF1", transactionRef: "REF1" });
    expect(seen[0]).toEqual({
      path: "/transaction/initiate",
      auth: "Bearer sk_fake",
      body: { amount: 500_000, email: "a@b.co", currency: "NGN", initiate_type: "inline", transaction_ref: "REF1", callback_url: "https://app.test/#/dashboard/1?reference=REF1" },
    });
  });

  it("verifies a transaction: status normalised, amount in kobo, currency", async () => {
    const { client, seen } = fakeSquad(() =>
      json({ status: 200, success: true, message: "Success", data: { transaction_ref: "REF1", transaction_status: "Success", transaction_amount: 500000, transaction_currency_id: "NGN" } }),
    );
    expect(await client.verify("REF1")).toEqual({ transactionRef: "REF1", status: "success", amountKobo: 500_000, currency: "NGN" });
    expect(seen[0].path).toBe("/transaction/verify/REF1");
    expect(seen[0].auth).toBe("Bearer sk_fake");
  });

  it("treats an unknown status as pending (never credit what we do not understand) and 404 as unknown", async () => {
    const odd = fakeSquad(() => json({ status: 200, success: true, data: { transaction_status: "Reversed?", transaction_amount: 100 } }));
    expect((await odd.client.verify("R"))?.status).toBe("pending");
    const missing = fakeSquad(() => json({ status: 404, success: false, message: "Transaction not found", data: {} }, 404));
    expect(await missing.client.verify("R")).toBeNull();
  });

  it("turns an error reply, HTML, garbage and a hang into UpstreamFaults, never a crash", async () => {
    const cases: [string, () => Response | Promise<Response>, string][] = [
      ["error reply", () => json({ status: 400, success: false, message: "Invalid amount", data: {} }, 400), "UPSTREAM_UNAVAILABLE"],
      ["unauthorised", () => json({ status: 401, success: false, message: "Merchant authentication failed" }, 401), "UPSTREAM_UNAVAILABLE"],
      ["html", () => new Response("<html><body>502 Bad Gateway</body></html>", { status: 502, headers: { "content-type": "text/html" } }), "UPSTREAM_UNAVAILABLE"],
      ["garbage", () => new Response("{not json", { status: 200 }), "UPSTREAM_UNAVAILABLE"],
      ["wrong shape", () => json({ status: 200, success: true, data: { checkout: "nope" } }), "UPSTREAM_UNAVAILABLE"],
      ["hang", () => new Promise<Response>(() => {}), "UPSTREAM_TIMEOUT"],
    ];
    for (const [name, reply, code] of cases) {
      const { client } = fakeSquad(reply);
      const initiate = await client.initiate({ amountKobo: 100_000, email: "a@b.co", transactionRef: "R", callbackUrl: "https://x.test/" }).catch((e) => e);
      expect(initiate, name).toBeInstanceOf(UpstreamFault);
      expect(initiate.code, name).toBe(code);
      const verify = await client.verify("R").catch((e) => e);
      expect(verify, name).toBeInstanceOf(UpstreamFault);
      expect(verify.code, name).toBe(code);
      // The customer-facing message never carries the upstream's words or our key.
      expect(String(verify.message)).not.toContain("sk_fake");
    }
  });

  it("reports a network failure as unavailable", async () => {
    const client = createSquadClient({ baseUrl: "https://squad.test", secretKey: "k", fetch: () => Promise.reject(new TypeError("fetch failed")) });
    await expect(client.verify("R")).rejects.toMatchObject({ code: "UPSTREAM_UNAVAILABLE", reason: "network" });
  });
});

describe("Squad adapter against the sandbox simulator", () => {
  it("speaks the same protocol: initiate then verify Pending; an unknown ref is 400; a wrong key is refused like Squad refuses it", async () => {
    const { env } = await import("cloudflare:workers");
    const { squadSimulator, SQUAD_SIMULATOR_PATH } = await import("../../sandbox/squad");
    const bound = (secretKey: string) =>
      createSquadClient({ baseUrl: `http://127.0.0.1${SQUAD_SIMULATOR_PATH}`, secretKey, fetch: (r) => Promise.resolve(squadSimulator.fetch(r, env)) });
    const ref = `SIM${crypto.randomUUID().replace(/-/g, "")}`;
    const good = bound(env.SQUAD_SECRET_KEY!);
    const checkout = await good.initiate({ amountKobo: 250_000, email: "a@b.co", transactionRef: ref, callbackUrl: "http://127.0.0.1/#/dashboard/1" });
    // The checkout page is a link for the customer: on the configured PUBLIC_URL, never the address the call came to.
    expect(checkout.checkoutUrl).toBe(`${env.PUBLIC_URL}/sandbox/squad/checkout/${ref}`);
    expect(await good.verify(ref)).toEqual({ transactionRef: ref, status: "pending", amountKobo: 250_000, currency: "NGN" });
    expect(await good.verify("NOPE")).toBeNull();
    await expect(bound("wrong").verify(ref)).rejects.toMatchObject({ code: "UPSTREAM_UNAVAILABLE", httpStatus: 403 });
    await expect(bound("").verify(ref)).rejects.toMatchObject({ httpStatus: 401 });
    // Squad documents transaction_ref as alphanumeric: the simulator refuses the dashed references we used to send.
    await expect(good.initiate({ amountKobo: 250_000, email: "a@b.co", transactionRef: "VN-ABC-123", callbackUrl: "http://127.0.0.1/" })).rejects.toMatchObject({ httpStatus: 400 });
  });
});
