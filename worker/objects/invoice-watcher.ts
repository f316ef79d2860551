import { DurableObject } from "cloudflare:workers";
import { configFor, type Env } from "../env";
import { log } from "../lib/log";
import { paymentProviders } from "../providers/payments/providers";
import { settleInvoice } from "../services/payments";

interface WatchedInvoice {
  paymentId: string;
  expiresAt: number;
  /** Failed settle attempts in a row (upstream down); the cron sweep takes over after MAX_ATTEMPTS. */
  attempts: number;
}

const MAX_ATTEMPTS = 12;
/** While the coins are confirming on-chain, look again this often instead of expiring the invoice. */
const IN_FLIGHT_RECHECK_MS = 10 * 60_000;
/** Give in-flight payments this long after expiry; the sweep keeps checking after that. */
const IN_FLIGHT_GIVE_UP_MS = 24 * 3600_000;

/**
 * One object per crypto invoice (named by our payment id). Its alarm fires when the invoice expires (1,000,000 ms after
 * creation); before expiring it, it asks NOWPayments for the status, so a lost IPN still credits the deposit.
 * alarm() is idempotent: settleInvoice re-reads the payment after every network call and the ledger key holds anyway.
 */
export class InvoiceWatcher extends DurableObject<Env> {
  async watch(invoice: { paymentId: string; expiresAt: number }): Promise<void> {
    const existing = await this.ctx.storage.get<WatchedInvoice>("invoice");
    if (existing) return;
    await this.ctx.storage.put<WatchedInvoice>("invoice", { ...invoice, attempts: 0 });
    await this.ctx.storage.setAlarm(invoice.expiresAt);
  }

  /** For tests and the operator: what the watcher holds and when it will look next. */
  async inspect(): Promise<{ invoice: WatchedInvoice | null; alarmAt: number | null }> {
    return { invoice: (await this.ctx.storage.get<WatchedInvoice>("invoice")) ?? null, alarmAt: await this.ctx.storage.getAlarm() };
  }

  override async alarm(): Promise<void> {
    const invoice = await this.ctx.storage.get<WatchedInvoice>("invoice");
    if (!invoice) return;
    const deps = {
      env: this.env,
      providers: paymentProviders(this.env, configFor(this.env)),
      defer: (work: Promise<unknown>) => this.ctx.waitUntil(work),
    };
    let settled: boolean;
    try {
      ({ settled } = await settleInvoice(deps, invoice.paymentId));
    } catch (err) {
      const attempts = invoice.attempts + 1;
      log("warn", "invoice settle failed", { paymentId: invoice.paymentId, attempts, error: err instanceof Error ? err.message : String(err) });
      if (attempts >= MAX_ATTEMPTS) {
        await this.ctx.storage.deleteAll();
        return;
      }
      await this.ctx.storage.put<WatchedInvoice>("invoice", { ...invoice, attempts });
      // Backoff without throwing: a thrown alarm is retried only a few times, and we want our own schedule.
      await this.ctx.storage.setAlarm(Date.now() + Math.min(30 * 60_000, 30_000 * 2 ** (attempts - 1)));
      return;
    }
    if (settled || Date.now() > invoice.expiresAt + IN_FLIGHT_GIVE_UP_MS) {
      await this.ctx.storage.deleteAll();
      return;
    }
    await this.ctx.storage.put<WatchedInvoice>("invoice", { ...invoice, attempts: 0 });
    await this.ctx.storage.setAlarm(Date.now() + IN_FLIGHT_RECHECK_MS);
  }
}
