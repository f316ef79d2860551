import { EmailDeliveryError, type EmailMessage, type EmailSender } from "./email-sender";

export const RESEND_BASE_URL = "https://api.resend.com";

export interface ResendOptions {
  /** https://api.resend.com live; a fake in tests. */
  baseUrl?: string;
  /** RESEND_API_KEY (a secret). */
  key: string;
  /** EMAIL_FROM, e.g. "Virtual Numbers <no-reply@example.com>" on a domain verified with Resend. */
  from: string;
  fetch?: (request: Request) => Promise<Response>;
  timeoutMs?: number;
}

/**
 * Resend's documented API: POST /emails with `Authorization: Bearer <key>` and {from, to[], subject, text, html?};
 * 200 {"id": "..."} when accepted; errors are {"statusCode", "name", "message"} with a 4xx/5xx.
 */
export class ResendEmailSender implements EmailSender {
  readonly name = "resend" as const;
  readonly sendInBackground = true;
  private readonly baseUrl: string;
  private readonly fetcher: (request: Request) => Promise<Response>;
  private readonly timeoutMs: number;

  constructor(private readonly options: ResendOptions) {
    this.baseUrl = (options.baseUrl ?? RESEND_BASE_URL).replace(/\/+$/, "");
    this.fetcher = options.fetch ?? ((request) => fetch(request));
    this.timeoutMs = options.timeoutMs ?? 10_000;
  }

  async send(message: EmailMessage): Promise<void> {
    const request = new Request(`${this.baseUrl}/emails`, {
      method: "POST",
      headers: { authorization: `Bearer ${this.options.key}`, "content-type": "application/json" },
      body: JSON.stringify({
        from: this.options.from,
        to: [message.to],
        subject: message.subject,
        text: message.text,
        ...(message.html ? { html: message.html } : {}),
      }),
    });
    const response = await this.withTimeout(request);
    const body = await readJson(response);
    if (!response.ok) {
      const detail = body && typeof body === "object" && "message" in body && typeof body.message === "string" ? body.message : "no detail";
      throw new EmailDeliveryError(`Resend refused the e-mail (HTTP ${response.status}: ${detail.slice(0, 200)})`, response.status);
    }
    if (!body || typeof body !== "object" || typeof (body as { id?: unknown }).id !== "string") {
      throw new EmailDeliveryError(`Resend answered HTTP ${response.status} without an e-mail id`, response.status);
    }
  }

  // The timeout races the call as well as signalling it: a fetch bound to something that ignores the signal still ends.
  private async withTimeout(request: Request): Promise<Response> {
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        controller.abort();
        reject(new EmailDeliveryError(`Resend did not answer within ${this.timeoutMs} ms`));
      }, this.timeoutMs);
    });
    try {
      return await Promise.race([this.fetcher(new Request(request, { signal: controller.signal })), timeout]);
    } catch (err) {
      if (err instanceof EmailDeliveryError) throw err;
      throw new EmailDeliveryError(`Resend could not be reached (${err instanceof Error ? err.name : "error"})`);
    } finally {
      if (timer !== undefined) clearTimeout(timer);
    }
  }
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
