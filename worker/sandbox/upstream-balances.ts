import { Hono } from "hono";
import { z } from "zod";
import type { AppEnv } from "../app-env";
import { validate } from "../lib/validate";
import { activeActivations, DOCUMENTED_SLOT_LIMITS, sandboxBalance, setSandboxBalance, setSlotLimit, slotLimit } from "./sms-activations";

/**
 * POST /sandbox/upstreams/balance {account: "swift" | "smsman", amount} sets our simulated balance at an upstream
 * (dollars at DaisySMS, roubles at sms-man), so the health floor, NO_MONEY and sms-man's "balance" error can be seen
 * locally. GET answers both balances. Sandbox only (mounted under the sandbox guard).
 *
 * POST /sandbox/upstreams/slots {account, limit: n | null | "documented"} sets how many activations the simulated
 * account may hold at once (null: no limit; "documented": the upstream's own, DOCUMENTED_SLOT_LIMITS). GET answers,
 * per account, the limit in force, the documented one and the slots in use now.
 */
const bodySchema = z.object({ account: z.enum(["swift", "smsman"]), amount: z.number().min(0).max(10_000_000) });

const slotsSchema = z.object({
  account: z.enum(["swift", "smsman"]),
  limit: z.union([z.number().int().min(0).max(1_000_000), z.null(), z.literal("documented")]),
});

export const upstreamBalanceSandboxRoutes = new Hono<AppEnv>()
  .get("/balance", async (c) => c.json({ swift: await sandboxBalance(c.env, "swift"), smsman: await sandboxBalance(c.env, "smsman") }))
  .post("/balance", validate("json", bodySchema), async (c) => {
    const { account, amount } = c.req.valid("json");
    await setSandboxBalance(c.env, account, amount);
    return c.json({ account, balance: await sandboxBalance(c.env, account) });
  })
  .get("/slots", async (c) => c.json(await slotsNow(c.env)))
  .post("/slots", validate("json", slotsSchema), async (c) => {
    const { account, limit } = c.req.valid("json");
    await setSlotLimit(c.env, account, limit);
    return c.json(await slotsNow(c.env));
  });

/** Per simulated account: the limit in force, the documented one, and the activations holding a slot now. */
export async function slotsNow(env: Parameters<typeof sandboxBalance>[0]) {
  const out: Record<string, { limit: number | null; documented: number | null; inUse: number }> = {};
  // HeroSMS too: the rate benchmark routes a share of its orders there (its batch status call, decision 051).
  for (const account of ["swift", "smsman", "herosms"] as const) {
    out[account] = { limit: await slotLimit(env, account), documented: DOCUMENTED_SLOT_LIMITS[account], inUse: await activeActivations(env, account) };
  }
  return out;
}
