import { eq } from "drizzle-orm";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../app-env";
import { passkeys, users } from "../db/tables";
import { AppError } from "../lib/errors";
import { readAsSignedInUser } from "./auth";

/** Exactly what app.notFound answers for a missing page, so the console's API cannot be told apart from nothing. */
export const ADMIN_NOT_FOUND = () => new AppError("NOT_FOUND", "Not found.");

/**
 * The gate of /api/admin/*: a live session (the same one-round-trip read every signed-in route uses) whose user has
 * the operator role, a second factor (two-factor sign-in or a passkey) and is not blocked. Everything else — no token, a bad or revoked one, a
 * customer, an operator without two-factor, an operator whose role was taken back — is the same 404 as a missing page:
 * the console's existence is not disclosed to anyone who may not use it (docs/decisions: operator console).
 */
export const requireOperator = createMiddleware<AppEnv>(async (c, next) => {
  let allowed = false;
  try {
    allowed = await readAsSignedInUser(c, (db, userId) => ({
      queries: [
        db.select({ role: users.role, blockedAt: users.blockedAt }).from(users).where(eq(users.id, userId)).limit(1),
        db.select({ id: passkeys.id }).from(passkeys).where(eq(passkeys.userId, userId)).limit(1),
      ],
      shape: ([rows, keys], user) => {
        const row = (rows as { role: string; blockedAt: number | null }[])[0];
        // A second factor is TOTP or a passkey (issue 33, decision 034).
        const secondFactor = user.totpEnabledAt !== null || (keys as unknown[]).length > 0;
        return row?.role === "operator" && row.blockedAt === null && secondFactor;
      },
    }));
  } catch (err) {
    if (!(err instanceof AppError) || err.status !== 401) throw err;
  }
  if (!allowed) throw ADMIN_NOT_FOUND();
  await next();
});
