import { STOP, type TickResult, wakeAt } from "../services/kernel";
import { deliverDueTelegram } from "../services/telegram";
import { TickScheduler } from "./tick-scheduler";

/**
 * One per Telegram chat (idFromName(chatId)), issue 48: sends the chat's queued bot messages in order
 * (services/telegram/delivery.ts). The messages and their attempts live in D1; this object only remembers which chat it
 * serves and keeps one alarm for the next due one (objects/tick-scheduler.ts), as WebhookDelivery does for a key.
 */
export class TelegramDelivery extends TickScheduler {
  protected readonly subjectKey = "chatId";

  /** New messages were queued: send now. */
  async kick(chatId: string): Promise<void> {
    this.noteRequest();
    await this.arm(chatId, Date.now());
  }

  protected async tick(chatId: string): Promise<TickResult> {
    const next = await deliverDueTelegram(this.services(), chatId);
    return next === null ? STOP : wakeAt(next);
  }
}
