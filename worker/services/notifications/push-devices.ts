import { and, desc, eq, ne, sql } from "drizzle-orm";
import { MAX_PUSH_DEVICES, type PushDeviceView, type PushRenewalInput, type PushSubscriptionInput } from "../../../schema/notifications";
import type { Config } from "../../config";
import type { Db } from "../../db/client";
import { AppError } from "../../lib/errors";
import { publicHttpsProblem } from "../../lib/public-address";
import { SANDBOX_PUSH_ORIGIN } from "../../providers/push/vapid";
import { describeUserAgent, liveSessionIds } from "../accounts";
import { enforceCostLimit, enforceRateLimit, RATE_LIMITS } from "../kernel";
import { pushSubscriptions } from "./tables";

/**
 * The devices that receive Web Push (issue 47): a browser's PushSubscription, turned on from Settings → Notifications
 * by a tap (the browser asks its permission then), listed and removed there, renewed by the service worker when the push
 * service changes it. Each belongs to the session that turned it on: signing out or being signed out stops its pushes.
 */

/** Who asks, as the route read it from the session (never from the body). */
export interface PushDeviceOwner {
  userId: string;
  sessionId: string;
  userAgent: string | null;
}

/**
 * Why an endpoint cannot be pushed to, or null: an https address on the public internet (RFC 8030 push services are),
 * never localhost or a private network (we would be POSTing there on a stranger's word). In sandbox mode the sandbox
 * push service's origin is allowed too.
 */
export function pushEndpointProblem(endpoint: string, config: Pick<Config, "providers">): string | null {
  try {
    if (config.providers === "sandbox" && new URL(endpoint).origin === SANDBOX_PUSH_ORIGIN) return null;
  } catch {
    // publicHttpsProblem says it is not a URL
  }
  return publicHttpsProblem(endpoint, "The push endpoint");
}

function refuseEndpoint(endpoint: string, config: Pick<Config, "providers">): void {
  const problem = pushEndpointProblem(endpoint, config);
  if (problem) throw new AppError("VALIDATION_FAILED", problem, { field: "endpoint" });
}

function requirePush(config: Pick<Config, "vapid">): void {
  if (!config.vapid) throw new AppError("CONFLICT", "Push notifications are not available on this service yet.");
}

const pushService = (endpoint: string) => {
  try {
    return new URL(endpoint).host;
  } catch {
    return "";
  }
};

type Row = typeof pushSubscriptions.$inferSelect;

function toView(row: Row, sessionId: string): PushDeviceView {
  return {
    id: row.id,
    label: describeUserAgent(row.userAgent).label,
    push_service: pushService(row.endpoint),
    created_at: new Date(row.createdAt).toISOString(),
    last_pushed_at: row.lastPushedAt === null ? null : new Date(row.lastPushedAt).toISOString(),
    this_session: row.sessionId === sessionId,
  };
}

/** The customer's devices that would receive a push now (their session is live), newest first. */
export async function listPushDevices(db: Db, owner: Pick<PushDeviceOwner, "userId" | "sessionId">, now: number): Promise<PushDeviceView[]> {
  const rows = await db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, owner.userId)).orderBy(desc(pushSubscriptions.createdAt));
  const live = await liveSessionIds(db, [...new Set(rows.map((r) => r.sessionId))], now);
  return rows.filter((r) => live.has(r.sessionId)).map((r) => toView(r, owner.sessionId));
}

/**
 * Turns push on for this browser (its PushSubscription.toJSON()). The same endpoint again (a reload re-registering, a new
 * sign-in on the same browser) moves the row to this session, but only with the same auth secret: the keys prove it
 * is the same browser, so nobody takes over a device by knowing its endpoint.
 */
export async function registerPushDevice(db: Db, config: Pick<Config, "providers" | "vapid">, owner: PushDeviceOwner, input: PushSubscriptionInput, now: number): Promise<PushDeviceView> {
  requirePush(config);
  refuseEndpoint(input.endpoint, config);
  await enforceCostLimit(db, owner.userId, "notifications", now);
  const [others] = await db
    .select({ n: sql<number>`COUNT(*)` })
    .from(pushSubscriptions)
    .where(and(eq(pushSubscriptions.userId, owner.userId), ne(pushSubscriptions.endpoint, input.endpoint)));
  if ((others?.n ?? 0) >= MAX_PUSH_DEVICES) {
    throw new AppError("CONFLICT", `Push is on for ${MAX_PUSH_DEVICES} devices already. Remove one in Settings → Notifications first.`);
  }
  const values = {
    id: `psub_${crypto.randomUUID().replaceAll("-", "")}`,
    userId: owner.userId,
    sessionId: owner.sessionId,
    endpoint: input.endpoint,
    p256dh: input.keys.p256dh,
    auth: input.keys.auth,
    userAgent: owner.userAgent?.slice(0, 256) ?? null,
    createdAt: now,
  };
  const [row] = await db
    .insert(pushSubscriptions)
    .values(values)
    .onConflictDoUpdate({
      target: pushSubscriptions.endpoint,
      set: { userId: values.userId, sessionId: values.sessionId, p256dh: values.p256dh, userAgent: values.userAgent },
      setWhere: sql`${pushSubscriptions.auth} = excluded.auth`,
    })
    .returning();
  if (!row) {
    throw new AppError("CONFLICT", "This browser's push subscription was registered with other keys. Turn push off in this browser's site settings, then on again here.");
  }
  return toView(row, owner.sessionId);
}

/** Stops pushes to one of the customer's devices (another customer's is 404, like anything not theirs). */
export async function removePushDevice(db: Db, userId: string, id: string, now: number): Promise<void> {
  await enforceCostLimit(db, userId, "notifications", now);
  const gone = await db
    .delete(pushSubscriptions)
    .where(and(eq(pushSubscriptions.id, id), eq(pushSubscriptions.userId, userId)))
    .returning({ id: pushSubscriptions.id });
  if (gone.length === 0) throw new AppError("NOT_FOUND", "Device not found.");
}

/** Equal strings in time that does not depend on where they differ (the auth secret is a credential here). */
function sameSecret(a: string, b: string): boolean {
  const x = new TextEncoder().encode(a);
  const y = new TextEncoder().encode(b);
  let diff = x.length ^ y.length;
  for (let i = 0; i < Math.max(x.length, y.length); i++) diff |= (x[i] ?? 0) ^ (y[i] ?? 0);
  return diff === 0;
}

/**
 * `pushsubscriptionchange` (web/sw/): the service worker holds no session, so it proves the old subscription with its
 * endpoint and auth secret, and the new one takes its place on the same session. Anything that does not match, or a
 * session that ended, is the same 404: the answer says nothing about which part was wrong.
 */
export async function renewPushDevice(db: Db, config: Pick<Config, "providers" | "vapid">, input: PushRenewalInput, now: number): Promise<void> {
  requirePush(config);
  refuseEndpoint(input.subscription.endpoint, config);
  await enforceRateLimit(db, `push-renew:${input.old_endpoint.slice(0, 300)}`, RATE_LIMITS.pushRenewalPerDevice, now);
  const notFound = new AppError("NOT_FOUND", "No such push subscription.");
  const [old] = await db.select().from(pushSubscriptions).where(eq(pushSubscriptions.endpoint, input.old_endpoint)).limit(1);
  if (!old || !sameSecret(old.auth, input.old_auth)) throw notFound;
  if (!(await liveSessionIds(db, [old.sessionId], now)).has(old.sessionId)) throw notFound;
  const [taken] = await db.select({ id: pushSubscriptions.id }).from(pushSubscriptions).where(eq(pushSubscriptions.endpoint, input.subscription.endpoint)).limit(1);
  if (taken) {
    // The app registered the new subscription itself first (a page open at the time): the old one only goes.
    await db.delete(pushSubscriptions).where(and(eq(pushSubscriptions.id, old.id), eq(pushSubscriptions.auth, old.auth)));
    return;
  }
  await db
    .update(pushSubscriptions)
    .set({ endpoint: input.subscription.endpoint, p256dh: input.subscription.keys.p256dh, auth: input.subscription.keys.auth })
    .where(and(eq(pushSubscriptions.id, old.id), eq(pushSubscriptions.auth, old.auth)));
}
