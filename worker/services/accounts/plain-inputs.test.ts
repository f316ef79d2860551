import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { STEP_UP_MESSAGES, STEP_UP_WINDOW_MS } from "../../../schema/passkeys";
import { emailOutbox, sessions } from "../../db/tables";
import { AppError } from "../../lib/errors";
import type { RequestDeps } from "../kernel";
import { createUser, db } from "../../test/helpers";
import { testServices } from "../../test/services";
import { requestPasswordReset } from "./accounts";
import { requireReauthentication, stepUpState } from "./step-up";

/**
 * Decision 056: an account service takes values, not Hono's Context, so a test calls it with deps built by hand and a
 * fixed clock, and sees what a route test cannot: the exact edge of the step-up window, and which work a command leaves
 * for after the answer.
 */
function handBuiltDeps(): RequestDeps & { deferred: Promise<unknown>[] } {
  const deferred: Promise<unknown>[] = [];
  const services = testServices({ defer: (work) => void deferred.push(work) });
  const { db, config, clock, defer, upstreams, events } = services;
  return { env: services.env, db, config, clock, defer, upstreams, events, requestId: "plain-inputs-test", deferred };
}

describe("account services called with plain inputs (no request)", () => {
  it("re-authentication counts for exactly 10 minutes: fresh 1 ms before the edge, refused at it, with the methods", async () => {
    const user = await createUser();
    const provedAt = 1_800_000_000_000;
    await db().update(sessions).set({ reauthenticatedAt: provedAt, secondFactorAt: null }).where(eq(sessions.id, user.sessionId));
    const session = { user: { id: user.id, totpEnabledAt: null }, sessionId: user.sessionId };

    await expect(requireReauthentication(db(), session, provedAt + STEP_UP_WINDOW_MS - 1)).resolves.toBeUndefined();
    const refused = await requireReauthentication(db(), session, provedAt + STEP_UP_WINDOW_MS).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ code: "STEP_UP_REQUIRED", message: STEP_UP_MESSAGES.reauthNeeded, extra: { step_up: "reauthenticate", methods: ["password"] } });
    // Another user's session id proves nothing for this user.
    const stranger = await createUser();
    await expect(requireReauthentication(db(), { ...session, sessionId: stranger.sessionId }, Date.now())).rejects.toMatchObject({ code: "STEP_UP_REQUIRED" });
    // The state GET /api/step-up answers: no second factor on this account, so the gate it reports is the password's.
    expect(await stepUpState(db(), session, provedAt + 1000)).toEqual({ methods: ["password"], fresh_until: new Date(provedAt + STEP_UP_WINDOW_MS).toISOString() });
  });

  it("'forgot password' answers before the link exists: the lookup and the e-mail run only in the deferred work", async () => {
    const user = await createUser();
    const deps = handBuiltDeps();
    const mailsTo = async (to: string) => (await db().select().from(emailOutbox).where(eq(emailOutbox.to, to))).length;

    await requestPasswordReset(deps, user.email);
    expect(deps.deferred).toHaveLength(1);
    expect(await mailsTo(user.email)).toBe(0);
    await Promise.all(deps.deferred);
    expect(await mailsTo(user.email)).toBe(1);

    // An unknown address: the same answer, the same deferred work, and no mail.
    const unknown = `nobody-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const again = handBuiltDeps();
    await requestPasswordReset(again, unknown);
    await Promise.all(again.deferred);
    expect(again.deferred).toHaveLength(1);
    expect(await mailsTo(unknown)).toBe(0);
  });
});
