import type { Config, Env } from "./env";
import type { SignedInUser } from "./middleware/auth";

/** Hono's environment for every route: bindings, the parsed config and, behind requireAuth, the signed-in user. */
export type AppEnv = {
  Bindings: Env;
  Variables: {
    config: Config;
    requestId: string;
    user: SignedInUser;
    sessionId: string;
  };
};
