import type { Config, Env } from "../../config";
import { webPushSimulator } from "../../sandbox/web-push-service";
import type { FetchLike } from "../upstream-http";
import { SANDBOX_PUSH_ORIGIN } from "./vapid";
import { createWebPushSender, type WebPushSender } from "./web-push";

/**
 * The Web Push sender for these bindings (issue 47): always the real one (providers/push/web-push.ts); only its
 * transport differs (a test may hand its own). Sandbox mode hands a push for the sandbox push service's origin to the simulator in-process
 * (worker/sandbox/web-push-service.ts) and sends anything else out; live mode sends everything out. null: the
 * deployment has no VAPID keys, so it cannot push.
 */
export function webPushSenderFor(env: Env, config: Config, transport?: FetchLike): WebPushSender | null {
  if (!config.vapid) return null;
  // A test's push service answers everything it is given.
  if (transport) return createWebPushSender(config.vapid, transport);
  const out: FetchLike = (request) => fetch(request);
  const send: FetchLike =
    config.providers === "sandbox" ? (request) => (new URL(request.url).origin === SANDBOX_PUSH_ORIGIN ? webPushSimulator.fetch(request, env) : out(request)) : out;
  return createWebPushSender(config.vapid, send);
}
