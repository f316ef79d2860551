import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { AppError } from "../../lib/errors";
import { createUser, db } from "../../test/helpers";
import { sweepAccountRows } from "../accounts";
import { clearRateLimit, consumeRateLimit, enforceRateLimit } from "./rate-limit";

const rule = { limit: 3, windowMs: 60_000 };

describe("rate limits", () => {
  it("allows up to the limit within a window, then refuses with the time left", async () => {
    const now = 1_000_000;
    const results = [];
    for (let i = 0; i < 4; i++) results.push(await consumeRateLimit(db(), "t:window", rule, now + i * 1000));
    expect(results.map((r) => r.allowed)).toEqual([true, true, true, false]);
    expect(results[3]).toMatchObject({ count: 4, retryAfterSeconds: 57 });
    // The window passes: counting starts again.
    expect(await consumeRateLimit(db(), "t:window", rule, now + 60_000)).toMatchObject({ allowed: true, count: 1 });
  });

  it("counts parallel hits exactly (one atomic upsert each)", async () => {
    const results = await Promise.all(Array.from({ length: 8 }, () => consumeRateLimit(db(), "t:parallel", rule, Date.now())));
    expect(results.filter((r) => r.allowed)).toHaveLength(3);
    expect(results.map((r) => r.count).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it("enforceRateLimit throws the 429 with retry_after; clearing forgets the key", async () => {
    for (let i = 0; i < 3; i++) await enforceRateLimit(db(), "t:enforce", rule, Date.now());
    const err = await enforceRateLimit(db(), "t:enforce", rule, Date.now()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({ code: "RATE_LIMITED", status: 429, extra: { retry_after: expect.any(Number) } });
    await clearRateLimit(db(), "t:enforce");
    await expect(enforceRateLimit(db(), "t:enforce", rule, Date.now())).resolves.toBeUndefined();
  });

  it("the sweep drops passed windows, dead sessions and old reset links, and keeps live ones", async () => {
    const now = Date.now();
    const user = await createUser();
    await consumeRateLimit(db(), "t:old", rule, now - 120_000);
    await consumeRateLimit(db(), "t:live", rule, now);
    await env.DB.prepare("INSERT INTO sessions (id, user_id, expires_at) VALUES ('dead-session', ?, ?)").bind(user.id, now - 1).run();
    await env.DB.prepare("INSERT INTO password_resets (id, user_id, token_hash, expires_at) VALUES ('old-reset', ?, 'x', ?)").bind(user.id, now - 2 * 86_400_000).run();
    await sweepAccountRows(db(), now);
    const keys = (await env.DB.prepare("SELECT key FROM rate_limits WHERE key LIKE 't:%'").all<{ key: string }>()).results.map((r) => r.key);
    expect(keys).toContain("t:live");
    expect(keys).not.toContain("t:old");
    expect(await env.DB.prepare("SELECT id FROM sessions WHERE id = 'dead-session'").first()).toBeNull();
    expect(await env.DB.prepare("SELECT id FROM sessions WHERE id = ?").bind(user.sessionId).first()).not.toBeNull();
    expect(await env.DB.prepare("SELECT id FROM password_resets WHERE id = 'old-reset'").first()).toBeNull();
  });
});
