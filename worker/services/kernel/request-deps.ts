import type { Config, Env } from "../../config";
import type { Db } from "../../db/client";

/**
 * What a command run for one request takes from that request, as plain values (docs/decisions/056-no-hono-in-services.md):
 * no service imports hono, so none reads a Hono Context. The route builds this (routes/flow-deps.ts requestDepsOf) and
 * passes the request's own facts (the signed-in user, the device, the address) as arguments of their own; a test can
 * build one by hand.
 */
export interface RequestDeps {
  /** The bindings: the socket rooms (closing revoked sessions, toasts), what the e-mail sender reads. */
  env: Env;
  db: Db;
  /** The parsed configuration: the token secret, the configured origins for links, the providers' mode. */
  config: Config;
  /** The request's id, for the log lines of work done after the answer. */
  requestId: string;
  /** Keeps work after the answer alive (the request's waitUntil). */
  defer: (work: Promise<unknown>) => void;
}
