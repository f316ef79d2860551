import { DurableObject } from "cloudflare:workers";
import type { Env } from "../config";
import { servicesFor } from "../container";
import { countingD1 } from "../lib/d1-metrics";
import { d1TallyFor, enableRunMetrics, noteAlarmRun, noteAlarmSet, noteDoRequest, statementObserver } from "../lib/run-metrics";
import type { Services, TickResult } from "../services/kernel";

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

  constructor(ctx: DurableObjectState, env: Env) {
    // The rate benchmark (D1_METRICS=true, never production) adds the objects' D1 use to its tallies (lib/run-metrics.ts).
    super(ctx, enableRunMetrics(env) ? { ...env, DB: countingD1(env.DB, d1TallyFor("objects"), statementObserver(new.target.name)) } : env);
  }

  /** Counts a request from the worker to this object (its RPC methods call this first), for the rate benchmark. */
  /** The services container of one alarm or call (worker/container.ts, decision 050): its work outlives the call
   * through the object's waitUntil. */
  protected services(): Services {
    return servicesFor(this.env, { defer: (work) => this.ctx.waitUntil(work) });
  }

  protected noteRequest(): void {
    noteDoRequest(this.constructor.name);
  }

  /** Serves `subject` and wakes no later than `at`: a pending earlier alarm stays (a kick never delays a tick). */
  protected async arm(subject: string, at: number): Promise<void> {
    const serving = await this.ctx.storage.get<string>(this.subjectKey);
    if (serving && serving !== subject) throw new Error(`this object serves ${this.subjectKey} ${serving}, not ${subject}`);
    await this.ctx.storage.put(this.subjectKey, subject);
    const pending = await this.ctx.storage.getAlarm();
    if (pending === null || pending > at) {
      await this.ctx.storage.setAlarm(at);
      noteAlarmSet();
    }
  }

  /** The row ended elsewhere (cancel, end, sweep): no more ticks. */
  async stop(): Promise<void> {
    this.noteRequest();
    await this.ctx.storage.deleteAlarm();
  }

  override async alarm(): Promise<void> {
    noteAlarmRun();
    const subject = await this.ctx.storage.get<string>(this.subjectKey);
    if (!subject) return;
    const next = await this.tick(subject);
    if (next.again) await this.arm(subject, next.wakeAt);
  }
}
