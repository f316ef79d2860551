import type { TickResult } from "../services/kernel";
import { invoiceTick } from "../services/funding";
import { TickScheduler } from "./tick-scheduler";

/**
 * One per crypto invoice (idFromName(our payment id)): its alarm fires when the invoice expires (1,000,000 ms after
 * creation) and runs invoiceTick, which asks NOWPayments before expiring it, so a lost IPN still credits the deposit
 * (objects/tick-scheduler.ts).
 */
export class InvoiceWatcher extends TickScheduler {
  protected readonly subjectKey = "paymentId";

  async watch(invoice: { paymentId: string; expiresAt: number }): Promise<void> {
    this.noteRequest();
    await this.arm(invoice.paymentId, invoice.expiresAt);
  }

  protected tick(paymentId: string): Promise<TickResult> {
    return invoiceTick(this.services().payments, paymentId);
  }
}
