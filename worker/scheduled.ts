import type { Env } from "./config";
import { cronServices } from "./container";
import { log } from "./lib/log";
import { runPaymentSweep, runTransferSweep, sweepWithdrawals } from "./services/funding";
import { purgeOutbox, purgeWebhookEvents, type Services, sweepOutbox } from "./services/kernel";
import { purgeChannelDeliveries, sweepChannels } from "./services/notifications";
import { sweepAccountRows } from "./services/accounts";
import { purgeIdempotencyKeys } from "./services/developer";
import { notifyOperators } from "./services/console";
import { sweepRentals } from "./services/rent";
import { refreshWholesaleVolumes } from "./services/resellers";
import { checkUpstreamHealth, sweepSmsOrders } from "./services/sms";
import { sweepTelegram } from "./services/telegram";

/**
 * The cron backstop (wrangler.toml [triggers]): settles whatever an alarm gave up on, so no money is ever stuck.
 * Each feature registers its own sweep here.
 */
export async function runScheduledSweep(env: Env): Promise<void> {
  // One services container for the run (worker/container.ts, decision 050); what it defers is awaited at the end.
  const { services, settle } = cronServices(env);
  try {
    await runSweeps(services);
  } finally {
    await settle();
  }
}

async function runSweeps(services: Services): Promise<void> {
  const { env, db } = services;
  // Rentals whose alarm never came: expire (close upstream) and refund those stuck before their number.
  try {
    const result = await sweepRentals(services.rent);
    if (result.expired + result.refunded > 0) log("info", "rental sweep", result);
  } catch (err) {
    log("error", "rental sweep failed", { error: err instanceof Error ? err.message : String(err) });
  }
  // SMS orders left waiting past their polling window (an alarm that gave up) or stuck before their number: refund once.
  try {
    await sweepSmsOrders(services.sms);
  } catch (err) {
    log("error", "sms sweep failed", { error: err instanceof Error ? err.message : String(err) });
  }
  // Our balance at each upstream against the operator's floor: below it, that provider's offers are hidden.
  try {
    await checkUpstreamHealth(services, services.clock.now());
  } catch (err) {
    log("error", "upstream health check failed", { error: err instanceof Error ? err.message : String(err) });
  }
  // Dead sessions, spent reset links and passed rate-limit windows.
  try {
    await sweepAccountRows(db, services.clock.now());
  } catch (err) {
    log("error", "account sweep failed", { error: err instanceof Error ? err.message : String(err) });
  }
  // Developer API Idempotency-Keys older than a day; webhook and channel (push, forwarding) delivery records older than 30 days.
  try {
    await purgeIdempotencyKeys(db, services.clock.now());
    await purgeWebhookEvents(db, services.clock.now());
    await purgeChannelDeliveries(db, services.clock.now());
  } catch (err) {
    log("error", "idempotency sweep failed", { error: err instanceof Error ? err.message : String(err) });
  }
  // Crypto invoices whose watcher gave up and card payments whose webhook never came: ask the provider, credit once.
  try {
    await runPaymentSweep(services.payments);
  } catch (err) {
    log("error", "payment sweep failed", { error: err instanceof Error ? err.message : String(err) });
  }
  // Bank transfers whose notification never came, arrivals Squad could not be asked about (issue 31).
  try {
    await runTransferSweep(services.payments);
  } catch (err) {
    log("error", "transfer sweep failed", { error: err instanceof Error ? err.message : String(err) });
  }
  // Withdrawals left unsent, transfers in flight (a 424 re-queried, never re-sent), paid ones reversed later (issue 45).
  try {
    const result = await sweepWithdrawals(services.payments);
    if (result.sent + result.checked > 0) log("info", "withdrawal sweep", result);
  } catch (err) {
    log("error", "withdrawal sweep failed", { error: err instanceof Error ? err.message : String(err) });
  }
  // Events a worker wrote with its money but stopped before delivering, and webhook deliveries whose queue job was lost
  // (services/kernel/outbox.ts, decision 073). After the money sweeps above, whose own events they deliver at once.
  try {
    const result = await sweepOutbox(services.events);
    if (result.delivered > 0) log("info", "outbox sweep delivered events left pending", result);
    await purgeOutbox(db, services.clock.now());
    // Pushes and rental forwards whose queue job was lost, and push devices of ended sessions.
    await sweepChannels(services);
  } catch (err) {
    log("error", "outbox sweep failed", { error: err instanceof Error ? err.message : String(err) });
  }
  // The Telegram bot (issue 48): chats whose delivery job was lost, and its old update ids, confirm steps and link tokens.
  try {
    await sweepTelegram(services);
  } catch (err) {
    log("error", "telegram sweep failed", { error: err instanceof Error ? err.message : String(err) });
  }
  // Resellers' 30-day volumes, the figure their wholesale tier is priced from (decision 074): the stalest first, bounded.
  try {
    await refreshWholesaleVolumes(db, services.clock.now());
  } catch (err) {
    log("error", "wholesale volume refresh failed", { error: err instanceof Error ? err.message : String(err) });
  }
  // Open operator consoles refresh their overview with what the sweep (and everything since) changed.
  try {
    await notifyOperators(env, "sweep");
  } catch (err) {
    log("warn", "operator refresh failed", { error: err instanceof Error ? err.message : String(err) });
  }
}
