import type { Context } from "hono";
import type { AppEnv } from "../app-env";
import type { PaymentDeps, RentalDeps, SmsDeps } from "../services/kernel";

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
