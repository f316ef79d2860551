import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it } from "vitest";
import worker from "../index";
import { api } from "../test/helpers";
import { smsActivateSimulator } from "./sms-activate-simulator";
import { setSlotLimit } from "./sms-activations";

/**
 * Issue 30: the DaisySMS simulator follows DaisySMS's documented limit ("You may have 20 active rentals at a time. Once
 * you get the code or cancel the rental, you can rent a new number", https://daisysms.com/docs/api); a run may raise it
 * through a sandbox setting; the counters and the setting exist only in sandbox mode.
 */
const daisy = async (params: Record<string, string>) => {
  const url = new URL("https://sandbox.daisysms.invalid/stubs/handler_api.php");
  for (const [k, v] of Object.entries({ api_key: env.SWIFT_API_KEY ?? "", ...params })) url.searchParams.set(k, v);
  return (await smsActivateSimulator.fetch(new Request(url, { headers: { "user-agent": "test" } }), env)).text();
};

afterEach(() => setSlotLimit(env, "swift", "documented"));

describe("upstream slots in the sandbox", () => {
  it("DaisySMS: 20 activations waiting for a code at once; the 21st is TOO_MANY_ACTIVE_RENTALS until one is cancelled", async () => {
    const ids: string[] = [];
    // 'Sandbox No-SMS' never gets a code in the USA: each holds its slot until cancelled.
    for (let i = 0; i < 20; i++) {
      const answer = await daisy({ action: "getNumber", service: "sbxnosms" });
      expect(answer).toMatch(/^ACCESS_NUMBER:/);
      ids.push(answer.split(":")[1]);
    }
    expect(await daisy({ action: "getNumber", service: "sbxnosms" })).toBe("TOO_MANY_ACTIVE_RENTALS");
    expect(await daisy({ action: "setStatus", id: ids[0], status: "8" })).toBe("ACCESS_CANCEL");
    expect(await daisy({ action: "getNumber", service: "sbxnosms" })).toMatch(/^ACCESS_NUMBER:/);
    const slots = await api("/sandbox/upstreams/slots");
    expect(slots.data.swift).toEqual({ limit: 20, documented: 20, inUse: 20 });
    expect(slots.data.smsman).toMatchObject({ limit: null, documented: null });
  });

  it("a run may raise the limit (said in the slots answer), and put the documented one back", async () => {
    expect((await api("/sandbox/upstreams/slots", { json: { account: "swift", limit: null } })).data.swift.limit).toBeNull();
    for (let i = 0; i < 21; i++) expect(await daisy({ action: "getNumber", service: "sbxnosms" })).toMatch(/^ACCESS_NUMBER:/);
    expect((await api("/sandbox/upstreams/slots", { json: { account: "swift", limit: "documented" } })).data.swift.limit).toBe(20);
    expect(await daisy({ action: "getNumber", service: "sbxnosms" })).toBe("TOO_MANY_ACTIVE_RENTALS");
    expect((await api("/sandbox/upstreams/slots", { json: { account: "swift", limit: -1 } })).status).toBe(400);
  });

  it("in live mode the metrics and slot routes do not exist (404)", async () => {
    const live = { ...env, PROVIDERS: "live" };
    for (const path of ["/sandbox/metrics", "/sandbox/metrics/invariants", "/sandbox/metrics/orders", "/sandbox/upstreams/slots"]) {
      const res = await worker.fetch(new Request(`http://127.0.0.1:8787${path}`) as Request<unknown, IncomingRequestCfProperties>, live, {
        waitUntil: () => undefined,
        passThroughOnException: () => undefined,
        props: {},
      } as unknown as ExecutionContext);
      expect(res.status, path).toBe(404);
    }
  });
});
