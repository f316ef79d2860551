import type { AuthenticationResponseJSON } from "@simplewebauthn/server";
import { and, count, eq } from "drizzle-orm";
import { STEP_UP_MESSAGES, STEP_UP_WINDOW_MS, type StepUpState } from "../../../schema/passkeys";
import type { Config } from "../../config";
import type { Db } from "../../db/client";
import { passkeys, sessions } from "./tables";
import { AppError } from "../../lib/errors";
import { verifyPassword } from "../../lib/password";
import { relyingPartyFor, verifyAssertion } from "./passkeys";
import { clearRateLimit, enforceRateLimit, RATE_LIMITS, rowsOf, runBatch } from "../kernel";
import { totpKey, verifySecondFactor } from "./two-factor";
import { findUserById } from "./users";

/**
 * Step-up and re-authentication (issue 33; ASVS 5.0 7.5.1 and 7.4.3; decision 034). A session records when it last
 * proved a second factor (second_factor_at) and when it last proved anything (reauthenticated_at): both are set at
 * sign-in and by POST /api/step-up. Sensitive changes call one of two gates:
 *
 * - `requireFreshSecondFactor`: creating an API key, removing the last passkey (turning TOTP off already asks for its
 *   code). An account with a passkey or TOTP needs a second factor proved in the last 10 minutes; an account with
 *   neither has no second factor to give, so its password (re-authentication) stands in.
 * - `requireReauthentication`: two-factor and passkey settings, a webhook destination. The password or a second factor
 *   proved in the last 10 minutes. (A password change carries the current password itself.)
 *
 * Both answer 403 STEP_UP_REQUIRED (never 401: the web signs out on a 401) with the methods the account can use.
 * Each takes the signed-in session as values (StepUpSession: the user and session id from the verified token), never
 * the request (decision 056).
 */
type Gate = "second_factor" | "reauthenticate";

/** The session asking: the signed-in user (from the verified token) and its session id. */
export interface StepUpSession {
  user: { id: string; totpEnabledAt: number | null };
  sessionId: string;
}

interface Proofs {
  secondFactorAt: number | null;
  reauthenticatedAt: number | null;
  hasTotp: boolean;
  hasPasskey: boolean;
}

async function proofsOf(db: Db, user: { id: string; totpEnabledAt: number | null }, sessionId: string): Promise<Proofs> {
  const { sessionRows, passkeyRows } = await runBatch(db, {
    sessionRows: rowsOf(db
      .select({ secondFactorAt: sessions.secondFactorAt, reauthenticatedAt: sessions.reauthenticatedAt })
      .from(sessions)
      .where(and(eq(sessions.id, sessionId), eq(sessions.userId, user.id)))
      .limit(1)),
    passkeyRows: rowsOf(db.select({ total: count() }).from(passkeys).where(eq(passkeys.userId, user.id))),
  });
  const session = sessionRows[0];
  return {
    secondFactorAt: session?.secondFactorAt ?? null,
    reauthenticatedAt: session?.reauthenticatedAt ?? null,
    hasTotp: user.totpEnabledAt !== null,
    hasPasskey: (passkeyRows[0]?.total ?? 0) > 0,
  };
}

const fresh = (at: number | null, now: number) => at !== null && now - at < STEP_UP_WINDOW_MS;

/** The methods the account can confirm with for a gate (the web shows exactly these). */
function methodsFor(proofs: Proofs, gate: Gate): StepUpState["methods"] {
  const second: StepUpState["methods"] = [...(proofs.hasPasskey ? (["passkey"] as const) : []), ...(proofs.hasTotp ? (["totp"] as const) : [])];
  if (gate === "second_factor" && second.length > 0) return second;
  return [...second, "password"];
}

/** When the gate's confirmation stops counting, or null when it is not fresh now. */
function freshUntil(proofs: Proofs, gate: Gate, now: number): number | null {
  const needsSecond = gate === "second_factor" && (proofs.hasTotp || proofs.hasPasskey);
  const at = needsSecond ? proofs.secondFactorAt : proofs.reauthenticatedAt;
  return fresh(at, now) ? at! + STEP_UP_WINDOW_MS : null;
}

async function requireGate(db: Db, session: StepUpSession, gate: Gate, now: number): Promise<void> {
  const proofs = await proofsOf(db, session.user, session.sessionId);
  if (freshUntil(proofs, gate, now) !== null) return;
  throw new AppError("STEP_UP_REQUIRED", gate === "second_factor" ? STEP_UP_MESSAGES.secondFactorNeeded : STEP_UP_MESSAGES.reauthNeeded, {
    step_up: gate,
    methods: methodsFor(proofs, gate),
  });
}

/** A second factor proved by this session in the last 10 minutes (or the password, for an account without one). */
export function requireFreshSecondFactor(db: Db, session: StepUpSession, now: number): Promise<void> {
  return requireGate(db, session, "second_factor", now);
}

/**
 * A passkey or TOTP proved by this session in the last 10 minutes, never the password (issue 45: granting an API key
 * the power to withdraw). An account with neither is told to add one first (403 FORBIDDEN: no step-up can help).
 */
export async function requireConfirmedSecondFactor(db: Db, session: StepUpSession, now: number, why: string): Promise<void> {
  const proofs = await proofsOf(db, session.user, session.sessionId);
  if (!proofs.hasTotp && !proofs.hasPasskey) throw new AppError("FORBIDDEN", `${why} needs a passkey or two-factor codes on your account: add one in Settings first.`);
  if (freshUntil(proofs, "second_factor", now) !== null) return;
  throw new AppError("STEP_UP_REQUIRED", STEP_UP_MESSAGES.secondFactorNeeded, { step_up: "second_factor", methods: methodsFor(proofs, "second_factor") });
}

/** The password or a second factor proved by this session in the last 10 minutes. */
export function requireReauthentication(db: Db, session: StepUpSession, now: number): Promise<void> {
  return requireGate(db, session, "reauthenticate", now);
}

/** GET /api/step-up: what the account can confirm with, and until when the second-factor gate is open. */
export async function stepUpState(db: Db, session: StepUpSession, now: number): Promise<StepUpState> {
  const proofs = await proofsOf(db, session.user, session.sessionId);
  const until = freshUntil(proofs, "second_factor", now);
  return { methods: methodsFor(proofs, "reauthenticate"), fresh_until: until === null ? null : new Date(until).toISOString() };
}

/**
 * POST /api/step-up: the session proves itself again. A TOTP or recovery code, or a passkey assertion (its ceremony
 * from POST /api/step-up/passkey/options, bound to this session), moves both times; the password moves only
 * reauthenticated_at, so it never passes for a second factor on an account that has one. Wrong answers are 400 (not
 * 401) and counted like the login's, so a stolen session cannot guess its way through.
 */
export async function confirmStepUp(
  deps: { db: Db; config: Pick<Config, "jwtSecret" | "publicUrl"> },
  session: StepUpSession,
  input: { code: string } | { password: string } | { challenge_id: string; response: AuthenticationResponseJSON },
  now: number,
): Promise<void> {
  const { db, config } = deps;
  const user = session.user;
  const owner = { userId: user.id, sessionId: session.sessionId };
  let secondFactor: boolean;
  if ("password" in input) {
    const limitKey = `password:${user.id}`;
    await enforceRateLimit(db, limitKey, RATE_LIMITS.passwordChangePerUser, now);
    const row = await findUserById(db, user.id);
    if (!row || !(await verifyPassword(input.password, row.passwordHash))) {
      throw new AppError("VALIDATION_FAILED", STEP_UP_MESSAGES.wrongPassword, { field: "password" });
    }
    await clearRateLimit(db, limitKey);
    secondFactor = false;
  } else if ("code" in input) {
    const limitKey = `2fa:${user.id}`;
    await enforceRateLimit(db, limitKey, RATE_LIMITS.twoFactorPerUser, now);
    if (user.totpEnabledAt === null || !(await verifySecondFactor(db, await totpKey(config.jwtSecret), user.id, input.code, now))) {
      throw new AppError("VALIDATION_FAILED", STEP_UP_MESSAGES.wrongCode, { field: "code" });
    }
    await clearRateLimit(db, limitKey);
    secondFactor = true;
  } else {
    await verifyAssertion(db, relyingPartyFor(config.publicUrl), "step-up", owner, input, now);
    secondFactor = true;
  }
  await db
    .update(sessions)
    .set(secondFactor ? { secondFactorAt: now, reauthenticatedAt: now } : { reauthenticatedAt: now })
    .where(and(eq(sessions.id, owner.sessionId), eq(sessions.userId, owner.userId)));
}
