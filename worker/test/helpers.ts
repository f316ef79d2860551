import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { expect } from "vitest";
import { getDb } from "../db/client";
import { sessions, users } from "../db/tables";
import worker from "../index";
import { signToken } from "../lib/jwt";
import { postEntry, reconcileLedger } from "../services/kernel";

/** Shared test helpers: real worker, real local D1. */

export const db = () => getDb(env.DB);

let counter = 0;
export interface TestUser {
  id: string;
  email: string;
  token: string;
  sessionId: string;
}

/** Creates a user with a live session directly in D1 (tests of other features need not go through signup). */
/**
 * A user ready for other features' tests: e-mail verified unless `emailVerified: false` (the verification tests), and
 * a session opened like newSessionRow opens one (last seen now).
 */
export async function createUser(opts: { balanceKobo?: number; email?: string; username?: string; emailVerified?: boolean } = {}): Promise<TestUser> {
  counter += 1;
  const id = crypto.randomUUID();
  const email = opts.email ?? `user${counter}-${id.slice(0, 8)}@example.com`;
  await db().insert(users).values({
    id,
    username: opts.username ?? `user${counter}`,
    email,
    phone: "08012345678",
    passwordHash: "test-only-not-a-hash",
    referralCode: `T${id.slice(0, 8).toUpperCase()}`,
    emailVerifiedAt: opts.emailVerified === false ? null : Date.now(),
  });
  const sessionId = crypto.randomUUID();
  await db().insert(sessions).values({ id: sessionId, userId: id, expiresAt: Date.now() + 3600_000, lastSeenAt: Date.now(), reauthenticatedAt: Date.now() });
  if (opts.balanceKobo) {
    await postEntry(db(), { at: Date.now(), userId: id, key: `test:seed:${id}`, amountKobo: opts.balanceKobo, kind: "admin", note: "Test funding" });
  }
  const token = await signToken(new TextEncoder().encode(env.JWT_SECRET!), "api", { userId: id, sessionId });
  return { id, email, token, sessionId };
}

/**
 * A decoded reply body as a test reads it: whatever the endpoint answered (JSON, or the raw text when it is not JSON).
 * Deliberately untyped: tests reach into its fields and the assertion is the check; `unknown` would only add a cast
 * to every expect.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the one untyped test-reply type, reasons above
export type ReplyBody = any;

export interface ApiReply {
  status: number;
  data: ReplyBody;
  headers: Headers;
}

/**
 * Calls the worker like a browser would. `token` adds the bearer header; `json` sends a JSON body. `settle` also waits
 * for the work the request deferred past its answer (executionCtx.waitUntil, e.g. the reset e-mail) before returning.
 */
export async function api(
  path: string,
  init: { method?: string; token?: string; json?: unknown; headers?: Record<string, string>; body?: BodyInit; settle?: boolean } = {},
): Promise<ApiReply> {
  const headers: Record<string, string> = { ...(init.headers ?? {}) };
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  let body = init.body;
  if (init.json !== undefined) {
    headers["content-type"] = "application/json";
    body = JSON.stringify(init.json);
  }
  const request = new Request(`http://127.0.0.1:8787${path}`, { method: init.method ?? (body ? "POST" : "GET"), headers, body });
  let res: Response;
  if (init.settle) {
    const ctx = createExecutionContext();
    res = await worker.fetch(request as Request<unknown, IncomingRequestCfProperties>, env, ctx);
    await waitOnExecutionContext(ctx);
  } else {
    res = await (exports as unknown as { default: Fetcher }).default.fetch(request);
  }
  const text = await res.text();
  let data: ReplyBody = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = text;
  }
  return { status: res.status, data, headers: res.headers };
}

export async function balanceOf(userId: string): Promise<number> {
  const row = await env.DB.prepare("SELECT balance_kobo FROM users WHERE id = ?").bind(userId).first<{ balance_kobo: number }>();
  return row?.balance_kobo ?? 0;
}

/** The money invariant every money test ends with: balance = sum(ledger) and >= 0 for every user. */
export async function expectLedgerBalanced() {
  const report = await reconcileLedger(db());
  expect(report.mismatches).toEqual([]);
  expect(report.negative).toEqual([]);
}
