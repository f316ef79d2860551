import { sql, type SQL } from "drizzle-orm";
import type { AnySQLiteColumn } from "drizzle-orm/sqlite-core";
import type { ProviderMode } from "../../config";
import type { ProviderSet, SmsCatalogueDeps } from "./deps";

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

/**
 * A reseller's sub-account wallet (issue 46, services/resellers/): `sub_...`, or `sbx_sub_...` under a sandbox account
 * (so it is a sandbox account too, and reaches the simulators). The prefix saves a read where most ids are customers'.
 */
export const SUBACCOUNT_WALLET_PREFIX = "sub_";
export function isSubaccountWallet(userId: string): boolean {
  return userId.startsWith(SUBACCOUNT_WALLET_PREFIX) || userId.startsWith(`${SANDBOX_USER_PREFIX}${SUBACCOUNT_WALLET_PREFIX}`);
}

/** The deployment's set, as the container holds it. */
export function deploymentProviderSet(mode: ProviderMode): ProviderSet {
  return { mode, sandboxAccount: false };
}

/** The set a customer's upstream calls use: a sandbox account's is always the simulators'. null: no customer. */
export function providerSetFor(deployment: ProviderSet, userId: string | null): ProviderSet {
  if (deployment.sandboxAccount || userId === null || !isSandboxUser(userId) || deployment.mode === "sandbox") return deployment;
  return { mode: "sandbox", sandboxAccount: true };
}

/** The SMS catalogue as this customer sees it: a sandbox account's reads the simulators' lists. */
export function catalogueFor(deps: SmsCatalogueDeps, userId: string): SmsCatalogueDeps {
  return { env: deps.env, upstreams: deps.upstreams, providerSet: providerSetFor(deps.providerSet, userId) };
}
