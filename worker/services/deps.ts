import type { Config, Env } from "../config";
import { getDb, type Db } from "../db/client";
import { paymentProviders, type PaymentProviders } from "../providers/payments/providers";
import { rentalProviderFor } from "../providers/rent";
import type { RentalProvider } from "../providers/rent/types";

/**
 * The dependency shape of the money flows (issue 14): what a service needs from outside itself, built in one place
 * per flow and handed in by whoever calls (a route, a Durable Object's tick, the cron sweep). Tests replace an upstream
 * through providers/test-seams.ts, which the provider builders below read, so a test injects the same way whichever
 * flow it drives. Receive SMS still takes `env` and picks its adapter per order (smsProviderFor); moving it to this
 * shape is the next step (issue 14).
 */
export interface MoneyFlowDeps<Provider> {
  env: Env;
  db: Db;
  /** The upstream(s) the flow talks to. */
  provider: Provider;
}

export type RentalDeps = MoneyFlowDeps<RentalProvider>;

export interface PaymentDeps extends MoneyFlowDeps<PaymentProviders> {
  /** Keeps best-effort work (realtime pushes) alive after the answer: waitUntil in a request or an object, collected
   *  and awaited by the cron sweep. */
  defer: (work: Promise<unknown>) => void;
}

type Defer = PaymentDeps["defer"];

export function rentalDeps(env: Env, config: Pick<Config, "providers">): RentalDeps {
  return { env, db: getDb(env.DB), provider: rentalProviderFor(env, config) };
}

export function paymentDeps(env: Env, config: Pick<Config, "providers" | "publicUrl">, defer: Defer): PaymentDeps {
  return { env, db: getDb(env.DB), provider: paymentProviders(env, config), defer };
}
