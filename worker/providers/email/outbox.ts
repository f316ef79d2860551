import { desc, eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { emailOutbox } from "../../db/tables";
import { log } from "../../lib/log";
import type { EmailMessage, EmailSender } from "./email-sender";

/**
 * Sandbox e-mail: stored in email_outbox for the developer (GET /sandbox/outbox) instead of being sent. The log line
 * says only that a mail was stored and where to read it: a reset link in the logs would be a credential in the logs.
 */
export class OutboxEmailSender implements EmailSender {
  readonly name = "outbox" as const;
  readonly sendInBackground = false;

  constructor(private readonly db: Db) {}

  async send(message: EmailMessage): Promise<void> {
    const [row] = await this.db
      .insert(emailOutbox)
      .values({ to: message.to, subject: message.subject, body: message.text, createdAt: Date.now() })
      .returning({ id: emailOutbox.id });
    log("info", "e-mail stored in the local outbox (read it at /sandbox/outbox)", { outboxId: row?.id, subject: message.subject });
  }
}

export type OutboxEntry = typeof emailOutbox.$inferSelect;

/** Newest first; `to` filters by recipient (the e-2-e journey follows its own reset link). */
export async function listOutbox(db: Db, opts: { to?: string; limit?: number } = {}): Promise<OutboxEntry[]> {
  const query = db.select().from(emailOutbox);
  const filtered = opts.to ? query.where(eq(emailOutbox.to, opts.to.trim().toLowerCase())) : query;
  return filtered.orderBy(desc(emailOutbox.id)).limit(opts.limit ?? 50);
}
