import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../app-env";
import { getDb } from "../db/client";
import { AppError } from "../lib/errors";
import { log } from "../lib/log";
import type { ApiCaller } from "../services/accounts";
import { authenticateApiKey, touchApiKey } from "../services/developer";

export const BAD_API_KEY = "This API key is not valid or has been revoked.";

/** The secret a JSON API request carries: `Authorization: Bearer sk_...` or `X-API-Key: sk_...`. */
export function apiKeyFromHeaders(c: Context<AppEnv>): string {
  const bearer = /^Bearer\s+(\S+)$/i.exec(c.req.header("authorization") ?? "")?.[1];
  return bearer ?? c.req.header("x-api-key")?.trim() ?? "";
}

/**
 * Authenticates a developer API key on every request (revoked_at is read each time, so a revoked key stops at once),
 * counts it against the key's rate limit (429 with Retry-After), and sets c.var.apiCaller and c.var.user (the acting
 * account: the owner for live keys, the owner's sandbox account for test keys).
 */
export const requireApiKey = createMiddleware<AppEnv>(async (c, next) => {
  const caller = await callerFor(c, apiKeyFromHeaders(c));
  if (!caller) throw new AppError("UNAUTHORIZED", BAD_API_KEY);
  await next();
});

/** Authenticates `secret` and sets the context; null when the key is malformed, unknown or revoked. */
export async function callerFor(c: Context<AppEnv>, secret: string): Promise<ApiCaller | null> {
  const db = getDb(c.env.DB);
  const caller = await authenticateApiKey(db, secret, c.var.services.clock.now());
  if (!caller) return null;
  c.set("apiCaller", caller);
  c.set("user", caller.user);
  const touch = touchApiKey(db, caller, c.var.services.clock.now()).catch((err: unknown) => log("warn", "api key last-use update failed", { error: String(err) }));
  try {
    c.executionCtx.waitUntil(touch);
  } catch {
    await touch; // no execution context (tests calling the app directly)
  }
  return caller;
}
