/** One e-mail. `text` is always sent; `html` is optional (the outbox shows the text). */
export interface EmailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /**
   * Makes a retried send one e-mail: Resend keeps the key 24 hours and answers a repeat with the first send's result
   * without sending again (https://resend.com/docs/dashboard/emails/idempotency-keys). Forwarded rental messages use
   * their delivery's id (issue 47).
   */
  idempotencyKey?: string;
}

/**
 * Where the product's e-mail goes: the Resend HTTP API live, the local outbox (table email_outbox) in sandbox mode.
 * send() resolves once the mail was accepted and rejects with EmailDeliveryError otherwise.
 */
export interface EmailSender {
  readonly name: "resend" | "outbox";
  /**
   * True when send() waits on the network: the caller answers first and sends in the background, so the time an
   * answer takes does not reveal whether an e-mail was sent (forgot-password must not say whether an account exists).
   */
  readonly sendInBackground: boolean;
  send(message: EmailMessage): Promise<void>;
}

/** A refusal or failure of the e-mail upstream. The message names what happened, never a key or the mail's content. */
export class EmailDeliveryError extends Error {
  override name = "EmailDeliveryError";
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}
