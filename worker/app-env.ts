import type { Config, Env } from "./env";
import type { SignedInUser } from "./middleware/auth";
import type { ApiCaller } from "./services/api-keys";

/** Hono's environment for every route: bindings, the parsed config and, behind requireAuth, the signed-in user. */
export type AppEnv = {
  Bindings: Env;
  Variables: {
    config: Config;
    requestId: string;
    user: SignedInUser;
    sessionId: string;
    /** Behind requireApiKey: the key and whom it acts as (user is then the acting account). */
    apiCaller: ApiCaller;
  };
};
