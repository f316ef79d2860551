import { sql, type SQL } from "drizzle-orm";
import type { AnySQLiteColumn } from "drizzle-orm/sqlite-core";
import type { Env } from "../../config";
import type { SmsCatalogueDeps } from "./deps";
import { memoizeByObject } from "../../lib/cache";

/**
 * Sandbox accounts (docs/decisions/011-developer-api.md): each customer who creates a test key gets a second, shadow
 * account whose id is `sbx_<ownerId>`. Test keys act as that account, so orders, the ledger, the pollers and refunds
 * run unchanged on a separate test wallet; and every upstream call made for it goes to the sandbox simulators, whatever
 * PROVIDERS says. The id prefix is the mark (user ids are otherwise UUIDs), so a poller needs no extra read to know.
 */
export const SANDBOX_USER_PREFIX = "sbx_";

export function sandboxUserIdFor(ownerId: string): string {
  return `${SANDBOX_USER_PREFIX}${ownerId}`;
}

export function isSandboxUser(userId: string): boolean {
  return userId.startsWith(SANDBOX_USER_PREFIX);
}

/**
 * A row of a real customer, not of a sandbox account (test keys' wallets, `sbx_...@sandbox.invalid`): the console's
 * customer list, overview figures and lists, and group e-mails keep test activity out with it (issue 28).
 */
export function notSandboxUser(userIdColumn: AnySQLiteColumn): SQL {
  return sql`substr(${userIdColumn}, 1, ${SANDBOX_USER_PREFIX.length}) <> ${SANDBOX_USER_PREFIX}`;
}

const derivedEnvs = new WeakSet<Env>();
const sandboxEnvOf = memoizeByObject((env: Env): Env => {
  const derived = { ...env, PROVIDERS: "sandbox" };
  derivedEnvs.add(derived);
  return derived;
});

/** Whether these bindings are a sandbox account's on a live deployment (its calls reach the simulators). */
export function isSandboxAccountEnv(env: Env): boolean {
  return derivedEnvs.has(env);
}

/** The bindings a user's upstream calls run with: a sandbox account always reaches the in-worker simulators. */
export function envForUser(env: Env, userId: string): Env {
  if (!isSandboxUser(userId) || env.PROVIDERS === "sandbox") return env;
  return sandboxEnvOf(env);
}

/** The provider mode for a user's rentals (rentalProviderFor takes the mode, not the env). */
export function providerModeFor(mode: "sandbox" | "live", userId: string): "sandbox" | "live" {
  return isSandboxUser(userId) ? "sandbox" : mode;
}

/** The SMS catalogue as this customer sees it: a sandbox account's reads the simulators' lists (envForUser). */
export function catalogueFor(deps: SmsCatalogueDeps, userId: string): SmsCatalogueDeps {
  return { env: envForUser(deps.env, userId), upstreams: deps.upstreams };
}
