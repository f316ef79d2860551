import { and, desc, eq, isNull, lt, or, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { API_KEY_SCOPES, type ApiKeyMode, type ApiKeyScope, type ApiKeyView, type CreatedApiKey, type CreateApiKeyInput } from "../../../schema/api-keys";
import type { Db } from "../../db/client";
import { apiKeys, users } from "../kernel";
import { AppError } from "../../lib/errors";
import { type ApiCaller, generateReferralCode, sha256Hex } from "../accounts";
import { consumeRateLimit, enforceCostLimit, ledgerInsert, ledgerRowWritten, outboxInsert, rateLimitedError, type RateLimitRule, sandboxUserIdFor } from "../kernel";

/**
 * Developer API keys: `sk_live_<32>` spends the owner's wallet, `sk_test_<32>` the owner's sandbox account. The secret
 * is shown once; the table keeps its SHA-256 (a fast hash is right here: the secret is 190 random bits, not a password).
 */

export type ApiKeyRow = typeof apiKeys.$inferSelect;

export const MAX_ACTIVE_KEYS = 20;
/** Per key: generous for a bot polling getStatus every few seconds on many numbers, a wall for a runaway loop. */
export const API_KEY_RATE_LIMIT: RateLimitRule = { limit: 300, windowMs: 60_000 };
/** last_used_at is written at most this often per key (a write per request would double the API's D1 cost). */
const LAST_USED_GRANULARITY_MS = 60_000;

const SECRET_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const SECRET_SHAPE = /^sk_(test|live)_[A-Za-z0-9]{32}$/;

function randomToken(length: number): string {
  // 248 = 4 × 62: rejection sampling keeps every character equally likely.
  let out = "";
  while (out.length < length) {
    for (const b of crypto.getRandomValues(new Uint8Array(length * 2))) {
      if (b < 248 && out.length < length) out += SECRET_ALPHABET[b % 62];
    }
  }
  return out;
}

export function toApiKeyView(row: ApiKeyRow): ApiKeyView {
  return {
    id: row.id,
    name: row.name,
    mode: row.mode,
    prefix: row.prefix,
    created_at: new Date(row.createdAt).toISOString(),
    last_used_at: row.lastUsedAt === null ? null : new Date(row.lastUsedAt).toISOString(),
    revoked_at: row.revokedAt === null ? null : new Date(row.revokedAt).toISOString(),
    webhook_url: row.webhookUrl,
    scopes: scopesOf(row.scopes),
  };
}

/** The scopes a stored list names (anything unreadable grants nothing). */
export function scopesOf(stored: string | null | undefined): ApiKeyScope[] {
  try {
    const list: unknown = JSON.parse(stored ?? "[]");
    return Array.isArray(list) ? API_KEY_SCOPES.filter((s) => list.includes(s)) : [];
  } catch {
    return [];
  }
}

/**
 * Sets a key's scopes (issue 45). Adding "withdraw" needs a passkey or TOTP proved by this session in the last 10
 * minutes (`requireConfirmedSecondFactor`, checked by the route before this runs); removing a scope needs nothing more
 * than the session. A test key cannot be given "withdraw"; a revoked key cannot be changed.
 */
export async function setApiKeyScopes(db: Db, ownerId: string, id: string, scopes: ApiKeyScope[], now: number): Promise<ApiKeyView> {
  await enforceCostLimit(db, ownerId, "apiKey", now);
  const row = await ownApiKey(db, ownerId, id);
  if (row.revokedAt !== null) throw new AppError("INVALID_STATE", "This key is revoked.");
  if (scopes.includes("withdraw") && row.mode !== "live") throw new AppError("VALIDATION_FAILED", "Only a live key can withdraw: a test key spends play money.", { field: "scopes" });
  const wanted = API_KEY_SCOPES.filter((s) => scopes.includes(s));
  const [updated] = await db
    .update(apiKeys)
    .set({ scopes: JSON.stringify(wanted) })
    .where(and(eq(apiKeys.id, id), eq(apiKeys.userId, ownerId), isNull(apiKeys.revokedAt)))
    .returning();
  if (!updated) throw new AppError("INVALID_STATE", "This key is revoked.");
  return toApiKeyView(updated);
}

/** Whether adding these scopes grants a power the key does not have yet (the route then asks for the second factor). */
export function grantsNewScope(row: ApiKeyRow, scopes: ApiKeyScope[]): boolean {
  const had = scopesOf(row.scopes);
  return scopes.some((s) => !had.includes(s));
}

/** The owner's sandbox account, created on first need. Unusable for logging in: its password hash matches nothing. */
export async function ensureSandboxAccount(db: Db, owner: { id: string; username: string }): Promise<string> {
  const id = sandboxUserIdFor(owner.id);
  for (let attempt = 0; attempt < 4; attempt++) {
    const inserted = await db
      .insert(users)
      .values({
        id,
        username: `${owner.username} (sandbox)`.slice(0, 80),
        email: `${id}@sandbox.invalid`,
        phone: "",
        passwordHash: "!sandbox-account-no-login",
        referralCode: generateReferralCode(),
      })
      .onConflictDoNothing({ target: users.id })
      .run()
      .then(() => true)
      .catch((err: unknown) => {
        if (String(err).includes("referral_code")) return false; // a colliding code: draw another
        throw err;
      });
    if (inserted) return id;
  }
  throw new Error("could not create the sandbox account");
}

export async function createApiKey(db: Db, owner: { id: string; username: string }, input: { name: string; mode: ApiKeyMode }, now: number): Promise<CreatedApiKey> {
  await enforceCostLimit(db, owner.id, "apiKey", now);
  const [{ active }] = await db
    .select({ active: sql<number>`count(*)` })
    .from(apiKeys)
    .where(and(eq(apiKeys.userId, owner.id), isNull(apiKeys.revokedAt)));
  if (active >= MAX_ACTIVE_KEYS) {
    throw new AppError("CONFLICT", `You can have at most ${MAX_ACTIVE_KEYS} active keys. Revoke one you no longer use first.`);
  }
  const actingUserId = input.mode === "test" ? await ensureSandboxAccount(db, owner) : owner.id;
  const secret = `sk_${input.mode}_${randomToken(32)}`;
  const row: ApiKeyRow = {
    id: `key_${randomToken(16)}`,
    userId: owner.id,
    actingUserId,
    name: input.name,
    mode: input.mode,
    // A new key buys and rents; withdrawing is granted apart, with a fresh passkey or TOTP (setApiKeyScopes).
    scopes: "[]",
    prefix: secret.slice(0, 14),
    secretHash: await sha256Hex(secret),
    webhookUrl: null,
    webhookSecret: `whsec_${randomToken(32)}`,
    createdAt: now,
    lastUsedAt: null,
    revokedAt: null,
  };
  await db.insert(apiKeys).values(row);
  return { ...toApiKeyView(row), secret, webhook_secret: row.webhookSecret };
}

export type { CreateApiKeyInput };

export async function listApiKeys(db: Db, ownerId: string): Promise<ApiKeyView[]> {
  const rows = await db.select().from(apiKeys).where(eq(apiKeys.userId, ownerId)).orderBy(desc(apiKeys.createdAt)).limit(100);
  return rows.map(toApiKeyView);
}

/** The owner's key (anyone else's is a 404, like a key that never existed). */
export async function ownApiKey(db: Db, ownerId: string, id: string): Promise<ApiKeyRow> {
  const [row] = await db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.id, id), eq(apiKeys.userId, ownerId)))
    .limit(1);
  if (!row) throw new AppError("NOT_FOUND", "API key not found.");
  return row;
}

/** Revokes at once: the next request with the key is refused (authentication reads revoked_at every time). */
export async function revokeApiKey(db: Db, ownerId: string, id: string, now: number): Promise<ApiKeyView> {
  await enforceCostLimit(db, ownerId, "apiKey", now);
  const row = await ownApiKey(db, ownerId, id);
  if (row.revokedAt !== null) return toApiKeyView(row);
  const [updated] = await db
    .update(apiKeys)
    .set({ revokedAt: now })
    .where(and(eq(apiKeys.id, id), eq(apiKeys.userId, ownerId), isNull(apiKeys.revokedAt)))
    .returning();
  return toApiKeyView(updated ?? row);
}

const acting = alias(users, "acting");
const owner = alias(users, "owner");

/**
 * The caller behind a secret, or null for a malformed, unknown or revoked key. One D1 read: the key, its acting account
 * and the owner's deposits (the discount tier) together. Then one rate-limit hit per request.
 */
export async function authenticateApiKey(db: Db, secret: string, now: number): Promise<ApiCaller | null> {
  if (!SECRET_SHAPE.test(secret)) return null;
  const [row] = await db
    .select({
      key: {
        id: apiKeys.id,
        userId: apiKeys.userId,
        actingUserId: apiKeys.actingUserId,
        mode: apiKeys.mode,
        name: apiKeys.name,
        webhookUrl: apiKeys.webhookUrl,
        webhookSecret: apiKeys.webhookSecret,
        lastUsedAt: apiKeys.lastUsedAt,
        scopes: apiKeys.scopes,
      },
      user: {
        id: acting.id,
        username: acting.username,
        email: acting.email,
        phone: acting.phone,
        referralCode: acting.referralCode,
        referredBy: acting.referredBy,
        balanceKobo: acting.balanceKobo,
        totalDepositedKobo: owner.totalDepositedKobo,
        // The owner's wholesale tier too (decision 074): a test key's sandbox wallet is priced as the live one.
        wholesaleVolumeKobo: owner.wholesaleVolumeKobo,
        emailVerifiedAt: acting.emailVerifiedAt,
        totpEnabledAt: acting.totpEnabledAt,
      },
    })
    .from(apiKeys)
    .innerJoin(acting, eq(acting.id, apiKeys.actingUserId))
    .innerJoin(owner, eq(owner.id, apiKeys.userId))
    // A blocked owner's keys stop with their sessions (the operator console's block, services/operator-actions.ts).
    .where(and(eq(apiKeys.secretHash, await sha256Hex(secret)), isNull(apiKeys.revokedAt), isNull(owner.blockedAt)))
    .limit(1);
  if (!row) return null;
  const limit = await consumeRateLimit(db, `apikey:${row.key.id}`, API_KEY_RATE_LIMIT, now);
  if (!limit.allowed) throw rateLimitedError(limit.retryAfterSeconds);
  return row;
}

/** Notes the key's use, at most once a minute. */
export async function touchApiKey(db: Db, caller: ApiCaller, now: number): Promise<void> {
  if (caller.key.lastUsedAt !== null && now - caller.key.lastUsedAt < LAST_USED_GRANULARITY_MS) return;
  await db
    .update(apiKeys)
    .set({ lastUsedAt: now })
    .where(and(eq(apiKeys.id, caller.key.id), or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, now - LAST_USED_GRANULARITY_MS))));
}

/**
 * Free test money for the owner's sandbox account, through the ledger like every movement (kind 'admin', never 'fund'),
 * with its balance.changed for the test keys' webhooks in the same batch (services/kernel/outbox.ts). Returns the
 * sandbox account's id, whose events the caller delivers.
 */
export async function topUpSandbox(db: Db, owner: { id: string; username: string }, amountKobo: number, now: number): Promise<string> {
  const sandboxUserId = await ensureSandboxAccount(db, owner);
  const key = `sandbox-topup:${crypto.randomUUID()}`;
  await db.batch([
    ledgerInsert(db, { at: now, userId: sandboxUserId, key, amountKobo, kind: "admin", note: "Sandbox top-up (test money)" }),
    outboxInsert(db, { userId: sandboxUserId, dedupe: `balance.changed:${key}`, message: { kind: "balance.changed" }, at: now }, ledgerRowWritten(db, key)),
  ]);
  return sandboxUserId;
}

/** The sandbox account's test balance (the account is created on first look). */
export async function sandboxBalanceKobo(db: Db, owner: { id: string; username: string }): Promise<number> {
  const id = await ensureSandboxAccount(db, owner);
  const [row] = await db.select({ balanceKobo: users.balanceKobo }).from(users).where(eq(users.id, id)).limit(1);
  return row?.balanceKobo ?? 0;
}
