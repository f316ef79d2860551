import { DurableObject } from "cloudflare:workers";
import type { Env } from "../config";
import type { TickResult } from "../services/tick";

/**
 * The one shape of a money flow's Durable Object (one object per order, rental or invoice, idFromName(its id)): a
 * scheduler that remembers which row it serves and when to wake, and on each alarm runs the flow's service tick, then
 * sleeps for as long as the tick asks. No domain logic and no retry policy of its own: services/tick.ts. A tick that
 * throws is retried by the runtime; the row's state lives in D1, never here.
 */
export abstract class TickScheduler extends DurableObject<Env> {
  /** The storage key holding the served row's id. */
  protected abstract readonly subjectKey: string;
  protected abstract tick(subject: string): Promise<TickResult>;

  /** Serves `subject` and wakes no later than `at`: a pending earlier alarm stays (a kick never delays a tick). */
  protected async arm(subject: string, at: number): Promise<void> {
    const serving = await this.ctx.storage.get<string>(this.subjectKey);
    if (serving && serving !== subject) throw new Error(`this object serves ${this.subjectKey} ${serving}, not ${subject}`);
    await this.ctx.storage.put(this.subjectKey, subject);
    const pending = await this.ctx.storage.getAlarm();
    if (pending === null || pending > at) await this.ctx.storage.setAlarm(at);
  }

  /** The row ended elsewhere (cancel, end, sweep): no more ticks. */
  async stop(): Promise<void> {
    await this.ctx.storage.deleteAlarm();
  }

  override async alarm(): Promise<void> {
    const subject = await this.ctx.storage.get<string>(this.subjectKey);
    if (!subject) return;
    const next = await this.tick(subject);
    if (next.again) await this.arm(subject, next.wakeAt);
  }
}
