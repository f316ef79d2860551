import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { getDb } from "../db/client";
import { clearSettingsCache, getSetting } from "../services/kernel";
import { api } from "../test/helpers";

describe("POST /sandbox/settings/:key", () => {
  it("stores a valid setting so a journey can poll faster", async () => {
    const res = await api("/sandbox/settings/sms_poll", { json: { interval_ms: 500, max_attempts: 4 } });
    expect(res.status).toBe(200);
    clearSettingsCache();
    expect(await getSetting(getDb(env.DB), "sms_poll")).toEqual({ interval_ms: 500, max_attempts: 4 });
  });

  it("refuses an invalid value with a 400 and keeps the old one", async () => {
    const res = await api("/sandbox/settings/sms_poll", { json: { interval_ms: 5, max_attempts: 4 } });
    expect(res.status).toBe(400);
    expect(res.data.code).toBe("VALIDATION_FAILED");
    clearSettingsCache();
    expect((await getSetting(getDb(env.DB), "sms_poll")).interval_ms).not.toBe(5);
  });

  it("refuses an unknown key", async () => {
    const res = await api("/sandbox/settings/not_a_setting", { json: {} });
    expect(res.status).toBe(400);
    expect(res.data.message).toBe("Unknown setting.");
  });
});
