import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../app-env";
import { enforceBindingLimit } from "../services/kernel";

/**
 * The generous per-address limit on signed-out account calls (register, login, forgot and reset password, the referral
 * page, passkey sign-in): the AUTH_ADDRESS_LIMITER binding (wrangler.toml [[ratelimits]], decision 073), counted by the
 * platform with no D1 write. Cloudflare sets cf-connecting-ip on every request it routes (locally, Miniflare sets the
 * client's, 127.0.0.1, so the journeys are counted like anyone); a request without it (a test's SELF.fetch) has no
 * address to count.
 */
/** The client's address as Cloudflare gives it, or null (a test's SELF.fetch). */
export const clientAddress = (c: Context<AppEnv>): string | null => c.req.header("cf-connecting-ip") || null;

export const perAddressLimit = createMiddleware<AppEnv>(async (c, next) => {
  const address = clientAddress(c);
  if (address) await enforceBindingLimit(c.env, "AUTH_ADDRESS_LIMITER", address);
  await next();
});
