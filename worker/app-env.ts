import type { Config, Env } from "./config";
// Straight to the file, not through the room's index (the one exception, scripts/domain-rooms.ts): every index leads
// through the kernel's deps to the providers and the sandbox simulators, which type their routes with this file.
import type { ApiCaller, SignedInUser } from "./services/accounts/sessions";
import type { Services } from "./services/kernel/deps";

/** Hono's environment for every route: bindings, the parsed config and, behind requireAuth, the signed-in user. */
export type AppEnv = {
  Bindings: Env;
  Variables: {
    config: Config;
    /** The request's services container (worker/container.ts): what every service call takes its dependencies from. */
    services: Services;
    requestId: string;
    user: SignedInUser;
    sessionId: string;
    /** Behind optionalAuth: the signed-in user, or null for a visitor. */
    viewer: SignedInUser | null;
    /** Behind requireApiKey: the key and whom it acts as (user is then the acting account). */
    apiCaller: ApiCaller;
    /** This app answering a request it sends itself (app.ts): the sandbox simulators' webhooks. */
    loopback: (request: Request) => Promise<Response>;
  };
};
