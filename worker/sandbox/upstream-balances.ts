import { Hono } from "hono";
import { z } from "zod";
import type { AppEnv } from "../app-env";
import { validate } from "../lib/validate";
import { sandboxBalance, setSandboxBalance } from "./sms-activations";

/**
 * POST /sandbox/upstreams/balance {account: "swift" | "smsman", amount} sets our simulated balance at an upstream
 * (dollars at DaisySMS, roubles at sms-man), so the health floor, NO_MONEY and sms-man's "balance" error can be seen
 * locally. GET answers both balances. Sandbox only (mounted under the sandbox guard).
 */
const bodySchema = z.object({ account: z.enum(["swift", "smsman"]), amount: z.number().min(0).max(10_000_000) });

export const upstreamBalanceSandboxRoutes = new Hono<AppEnv>()
  .get("/balance", async (c) => c.json({ swift: await sandboxBalance(c.env, "swift"), smsman: await sandboxBalance(c.env, "smsman") }))
  .post("/balance", validate("json", bodySchema), async (c) => {
    const { account, amount } = c.req.valid("json");
    await setSandboxBalance(c.env, account, amount);
    return c.json({ account, balance: await sandboxBalance(c.env, account) });
  });
