import type { Context } from "hono";
import type { AppEnv } from "../app-env";
import type { StepUpSession } from "../services/accounts";
import type { PaymentDeps, RentalDeps, RequestDeps, SmsDeps } from "../services/kernel";

/**
 * The money flows' dependencies for one request: views of the request's services container (worker/container.ts,
 * which app.ts's middleware builds once per request; Durable Objects and the cron build their own). One place for
 * every route file: the customer's, the developer API's, the console's and the webhooks' handlers take a flow's deps
 * the same way.
 */
export const smsDepsOf = (c: Context<AppEnv>): SmsDeps => c.var.services.sms;

export const rentalDepsOf = (c: Context<AppEnv>): RentalDeps => c.var.services.rent;

/** Pushes after the answer are kept alive by the request's waitUntil (the container's defer). */
export const paymentDepsOf = (c: Context<AppEnv>): PaymentDeps => c.var.services.payments;

/**
 * A request-scoped command's deps (services/kernel/request-deps.ts): a slice of the request's container plus the
 * request's id; the Hono part stays here, the service gets values.
 */
export const requestDepsOf = (c: Context<AppEnv>): RequestDeps => {
  const services = c.var.services;
  return { env: services.env, db: services.db, config: services.config, clock: services.clock, defer: services.defer, upstreams: services.upstreams, events: services.events, requestId: c.var.requestId };
};

/** The request's time, from its services container's clock (the one clock every service reads: issue 42). */
export const nowOf = (c: Context<AppEnv>): number => c.var.services.clock.now();

/** The signed-in session as the step-up gates take it (services/accounts/step-up.ts): the verified token's user and id. */
export const sessionOf = (c: Context<AppEnv>): StepUpSession => ({ user: c.var.user, sessionId: c.var.sessionId });
