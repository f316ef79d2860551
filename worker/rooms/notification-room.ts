import { Server } from "partyserver";
import type { RealtimeMessage } from "../../schema/realtime";
import type { Env } from "../env";

/** One room per user: /parties/notification-room/<userId>. (Owned by the realtime work: token check on connect.) */
export class NotificationRoom extends Server<Env> {
  async publish(message: RealtimeMessage): Promise<void> {
    this.broadcast(JSON.stringify(message));
  }
}
