import type { Services } from "./deps";

/**
 * What a command run for one request takes from that request, as plain values (docs/decisions/056-no-hono-in-services.md):
 * no service imports hono, so none reads a Hono Context. It is a slice of the request's services container
 * (docs/decisions/050-services-container.md) plus the request's id: the route builds it (routes/flow-deps.ts
 * requestDepsOf) and passes the request's own facts (the signed-in user, the device, the address) as arguments of
 * their own; a test builds one from worker/test/services.ts testServices.
 *
 * - env: the bindings (the socket rooms for closing revoked sessions and toasts);
 * - db, config: the database and the parsed configuration (the token secret, the origins for links, the mode);
 * - defer: keeps work after the answer alive (the request's waitUntil);
 * - upstreams: the container's adapters (the e-mail sender);
 * - events: the outbox's delivery deps, for events written with an operator's change.
 */
export type RequestDeps = Pick<Services, "env" | "db" | "config" | "clock" | "defer" | "upstreams" | "events"> & {
  /** The request's id, for the log lines of work done after the answer. */
  requestId: string;
};
