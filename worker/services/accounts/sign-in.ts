import { AppError } from "../../lib/errors";
import { log } from "../../lib/log";
import type { RequestDeps } from "../kernel";
import { deliverAccountEmail, newSignInEmail } from "./account-emails";
import { describePlace, describeUserAgent, rememberDevice } from "./devices";
import { startSession, type SessionDevice, type SignInMethod } from "./sessions";

/**
 * Opens a session for a customer who proved who they are (password, and the code when two-factor is on), and, after
 * the answer, e-mails them when the device is one this account has not signed in from before. The device is the
 * request's (sessions.ts deviceFromRequest, read by the route).
 */
export async function openSignedInSession(
  deps: RequestDeps,
  user: { id: string; email: string; username: string; blockedAt: number | null },
  device: SessionDevice,
  method: SignInMethod = "password",
): Promise<string> {
  refuseBlocked(user);
  const { token } = await startSession(deps.db, deps.config.jwtSecret, user.id, deps.clock.now(), device, method);
  deps.defer(noteDevice(deps, user, device, true));
  return token;
}

export const BLOCKED_MESSAGE = "This account has been blocked by our team. Your balance is kept; please contact support.";

/**
 * An operator blocked this account (console, services/operator-actions.ts): no new session. Asked only after the
 * password matched, so the answer tells nothing to someone guessing. A 403, not a 401: the customer is not "signed out"
 * of anything, and the login form shows the message as it is.
 */
export function refuseBlocked(user: { blockedAt: number | null }): void {
  if (user.blockedAt !== null) throw new AppError("FORBIDDEN", BLOCKED_MESSAGE);
}

/** Records the device; `alert` e-mails the customer when it is new (not at sign-up: the first device is never news). */
export async function noteDevice(deps: RequestDeps, user: { id: string; email: string; username: string }, device: SessionDevice, alert: boolean): Promise<void> {
  try {
    const isNew = await rememberDevice(deps.db, user.id, device, deps.clock.now());
    if (!isNew || !alert) return;
    const place = describePlace(device);
    await deliverAccountEmail(deps, newSignInEmail(user, { label: describeUserAgent(device.userAgent).label, place, at: deps.clock.now() }), "new-sign-in");
  } catch (err) {
    log("warn", "device check failed", { rid: deps.requestId, error: err instanceof Error ? err.message : String(err) });
  }
}
