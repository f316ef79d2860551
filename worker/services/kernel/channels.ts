import { and, sql } from "drizzle-orm";
import type { DeliveryChannels } from "./deps";

/**
 * Several delivery channels as one (issue 47's Web Push and forwarding, issue 48's Telegram bot): the outbox's
 * delivery asks each for its rows, kicks each after the batch, and may claim a customer's events on its fast path only
 * while none of them has anything for the customer. The container composes the list (worker/container.ts).
 */
export function combineChannels(...channels: DeliveryChannels[]): DeliveryChannels {
  return {
    async fanOut(event, message, now) {
      return (await Promise.all(channels.map((c) => c.fanOut(event, message, now)))).flat();
    },
    async kick(userId) {
      await Promise.all(channels.map((c) => c.kick(userId)));
    },
    revive: (kind, deliveryId, now) => channels.map((c) => c.revive(kind, deliveryId, now)).find((item) => item !== null) ?? null,
    noneFor: (userId) => (channels.length === 0 ? sql`1 = 1` : and(...channels.map((c) => c.noneFor(userId)))!),
  };
}
