import { z } from "zod";
import { createUpstreamClient, UpstreamFault, type FetchLike, type UpstreamClient } from "../upstream-http";
import { EmailDeliveryError, type EmailMessage, type EmailSender } from "./email-sender";

/** Resend's documented base URL (https://resend.com/docs/api-reference/introduction); RESEND_BASE_URL overrides it. */
export const RESEND_BASE_URL = "https://api.resend.com";

export interface ResendOptions {
  /** RESEND_BASE_URL (https://api.resend.com live; a staging host, a test bench or a fake otherwise). */
  baseUrl?: string;
  /** RESEND_API_KEY (a secret). */
  key: string;
  /** EMAIL_FROM, e.g. "Virtual Numbers <no-reply@example.com>" on a domain verified with Resend. */
  from: string;
  fetch?: FetchLike;
  timeoutMs?: number;
}

// POST /emails answers 200 {"id": "..."} (https://resend.com/docs/api-reference/emails/send-email).
const sentSchema = z.object({ id: z.string().min(1) });
// Errors are {"statusCode", "name", "message"} (https://resend.com/docs/api-reference/errors).
const errorSchema = z.object({ statusCode: z.number().optional(), name: z.string().optional(), message: z.string() });

/**
 * Resend's documented API: POST /emails with `Authorization: Bearer <key>`, a User-Agent (the shared upstream client
 * sends one on every call: without it Resend answers 403, error 1010) and {from, to[], subject, text, html?}.
 */
export class ResendEmailSender implements EmailSender {
  readonly name = "resend" as const;
  readonly sendInBackground = true;
  private readonly http: UpstreamClient;

  constructor(private readonly options: ResendOptions) {
    this.http = createUpstreamClient({
      provider: "Resend",
      baseUrl: options.baseUrl || RESEND_BASE_URL,
      fetch: options.fetch,
      timeoutMs: options.timeoutMs,
      headers: { authorization: `Bearer ${options.key}` },
    });
  }

  async send(message: EmailMessage): Promise<void> {
    let reply: { status: number; text: string };
    try {
      reply = await this.http.request("/emails", {
        method: "POST",
        ...(message.idempotencyKey ? { headers: { "idempotency-key": message.idempotencyKey } } : {}),
        json: {
          from: this.options.from,
          to: [message.to],
          subject: message.subject,
          text: message.text,
          ...(message.html ? { html: message.html } : {}),
        },
      });
    } catch (err) {
      if (err instanceof UpstreamFault && err.reason === "timeout") throw new EmailDeliveryError(`Resend did not answer within the time limit (${err.detail})`);
      throw new EmailDeliveryError(`Resend could not be reached (${err instanceof UpstreamFault ? err.reason : "error"})`);
    }
    const body = parseJson(reply.text);
    if (reply.status < 200 || reply.status >= 300) {
      const error = errorSchema.safeParse(body);
      const detail = error.success ? `${error.data.name ? `${error.data.name}: ` : ""}${error.data.message}` : "no detail";
      throw new EmailDeliveryError(`Resend refused the e-mail (HTTP ${reply.status}: ${detail.slice(0, 200)})`, reply.status);
    }
    if (!sentSchema.safeParse(body).success) {
      throw new EmailDeliveryError(`Resend answered HTTP ${reply.status} without an e-mail id`, reply.status);
    }
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
