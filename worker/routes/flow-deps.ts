import type { Context } from "hono";
import type { AppEnv } from "../app-env";
import { getDb } from "../db/client";
import type { StepUpSession } from "../services/accounts";
import { paymentDeps, type PaymentDeps, rentalDeps, type RentalDeps, type RequestDeps, smsDeps, type SmsDeps } from "../services/kernel";

/**
 * The money flows' dependencies for one request (services/deps.ts builds them; Durable Objects and the sweep call those
 * builders with their own bindings). One place for every route file: the customer's, the developer API's, the
 * console's and the webhooks' handlers build a flow's deps the same way, once per handler.
 */
export const smsDepsOf = (c: Context<AppEnv>): SmsDeps => smsDeps(c.env);

export const rentalDepsOf = (c: Context<AppEnv>): RentalDeps => rentalDeps(c.env, c.var.config);

/** Pushes after the answer are kept alive by the request's waitUntil. */
export const paymentDepsOf = (c: Context<AppEnv>): PaymentDeps => paymentDeps(c.env, c.var.config, (work) => c.executionCtx.waitUntil(work));

/** A request-scoped command's deps (services/kernel/request-deps.ts): the Hono part stays here, the service gets values. */
export const requestDepsOf = (c: Context<AppEnv>): RequestDeps => ({
  env: c.env,
  db: getDb(c.env.DB),
  config: c.var.config,
  requestId: c.var.requestId,
  defer: (work) => c.executionCtx.waitUntil(work),
});

/** The signed-in session as the step-up gates take it (services/accounts/step-up.ts): the verified token's user and id. */
export const sessionOf = (c: Context<AppEnv>): StepUpSession => ({ user: c.var.user, sessionId: c.var.sessionId });
