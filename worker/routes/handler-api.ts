import { Hono, type Context } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { AppEnv } from "../app-env";
import { AppError } from "../lib/errors";
import { callerFor } from "../middleware/api-key";
import { protocolAction } from "../services/developer";
import { smsDepsOf } from "./flow-deps";

/**
 * GET|POST /stubs/handler_api.php: the SMS-Activate protocol at the path DaisySMS serves it, so existing tools switch
 * to us by changing one URL. Parameters come from the query string and/or a form body, as the protocol's
 * clients send them. Answers are HTTP 200 with the protocol's words (clients read the body, and several treat any
 * non-2xx as a crash); only the per-key rate limit answers 429, with the one error body and Retry-After.
 */
export const handlerApiRoutes = new Hono<AppEnv>()
  .use(
    "*",
    bodyLimit({
      maxSize: 8 * 1024,
      onError: () => {
        throw new AppError("PAYLOAD_TOO_LARGE", "Request body is too large (limit 8 KB).");
      },
    }),
  )

  .on(["GET", "POST"], "/", async (c) => {
    const params = await protocolParams(c);
    const get = (name: string) => (params.get(name) ?? "").trim();
    const caller = get("api_key") ? await callerFor(c, get("api_key")) : null;
    if (!caller) return c.text("BAD_KEY");
    const reply = await protocolAction(smsDepsOf(c), caller.user, get("action"), { get });
    return "text" in reply ? c.text(reply.text) : c.json(reply.json);
  });


async function protocolParams(c: Context<AppEnv>): Promise<URLSearchParams> {
  const params = new URLSearchParams(new URL(c.req.url).search);
  if (c.req.method !== "POST") return params;
  const type = c.req.header("content-type") ?? "";
  try {
    // The protocol's clients POST forms (urlencoded or multipart) or put everything in the query string.
    if (type.includes("form")) {
      for (const [k, v] of Object.entries(await c.req.parseBody())) if (typeof v === "string") params.set(k, v);
    }
  } catch {
    // An unreadable body leaves the query's parameters: the action then answers with its own word.
  }
  return params;
}
