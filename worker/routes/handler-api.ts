import { Hono, type Context } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { AppEnv } from "../app-env";
import { AppError } from "../lib/errors";
import { callerFor } from "../middleware/api-key";
import { subaccountUser } from "../middleware/subaccount";
import { getDb } from "../db/client";
import type { ApiCaller, SignedInUser } from "../services/accounts";
import { protocolAction, protocolDeveloperRef } from "../services/developer";
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
    const acting = await actingUserOf(c, caller, get("subaccount"), get("action"));
    if (typeof acting === "string") return c.text(acting);
    // Issue 46 (decision 075): getNumber's `ref`, the developer who earns a share; one that earns nothing is ignored.
    const buying = get("action") === "getNumber" || get("action") === "getNumberV2";
    const developerRef = buying && get("ref") ? await protocolDeveloperRef(getDb(c.env.DB), { key: caller.key, user: acting }, get("ref")) : null;
    const reply = await protocolAction(smsDepsOf(c), developerRef ? { ...acting, developerRef } : acting, get("action"), { get });
    return "text" in reply ? c.text(reply.text) : c.json(reply.json);
  });

/**
 * A reseller names the sub-account it acts as with `subaccount=<id>` (issue 46, decision 072), checked as the JSON API
 * checks X-Subaccount. Refusals are the protocol's words: not a reseller, or not its sub-account (unknown, another
 * reseller's): BAD_KEY, the one word for "this key may not act as that", so ids cannot be probed; closed, or frozen for
 * a purchase: ACCOUNT_INACTIVE (decision 077). SMS-Activate's protocol page (https://sms-activate.ae/en/api2, "Order a
 * virtual number rental") defines "ACCOUNT_INACTIVE - the account is not active", with no time; its getNumber answer
 * BANNED is always "BANNED:'YYYY-m-d H-i-s' - time for which the account is blocked", a ban that ends, which clients
 * parse for that time (wait, then retry). A freeze has no end (it lasts until the reseller unfreezes) and a close is
 * final, so a date would be invented and a bare BANNED is not the documented shape.
 */
/** The protocol's word for a sub-account that may not act (closed) or buy (frozen). */
const SUBACCOUNT_INACTIVE = "ACCOUNT_INACTIVE";

async function actingUserOf(c: Context<AppEnv>, caller: ApiCaller, subaccountId: string, action: string): Promise<SignedInUser | string> {
  if (!subaccountId) return caller.user;
  const spends = action === "getNumber" || action === "getNumberV2";
  try {
    return await subaccountUser(getDb(c.env.DB), caller.key.userId, caller.user, subaccountId, spends);
  } catch (err) {
    if (err instanceof AppError && err.code === "INVALID_STATE") return SUBACCOUNT_INACTIVE;
    if (err instanceof AppError) return "BAD_KEY";
    throw err;
  }
}

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
