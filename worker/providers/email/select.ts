import type { Db } from "../../db/client";
import type { Config, Env } from "../../config";
import { log } from "../../lib/log";
import type { EmailSender } from "./email-sender";
import { OutboxEmailSender } from "./outbox";
import { ResendEmailSender } from "./resend";

const DEFAULT_FROM = "no-reply@example.com";

/**
 * Sandbox mode stores mail in the local outbox. Live mode sends through Resend; loadConfig already refused a production
 * start without RESEND_API_KEY, so reaching the fallback means an explicitly allowed insecure deployment.
 */
export function emailSenderFor(env: Env, config: Config, db: Db): EmailSender {
  if (config.providers === "live" && env.RESEND_API_KEY) {
    return new ResendEmailSender({ key: env.RESEND_API_KEY, from: env.EMAIL_FROM || DEFAULT_FROM, baseUrl: env.RESEND_BASE_URL });
  }
  if (config.providers === "live") log("warn", "RESEND_API_KEY is not set: e-mail goes to the local outbox only");
  return new OutboxEmailSender(db);
}
