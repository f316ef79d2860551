import { and, desc, eq, inArray, lt, or, sql, type SQL } from "drizzle-orm";
import { formatNaira, koboToNaira } from "../../../schema/money";
import { tierFor } from "../../../schema/tiers";
import { type AdminWithdrawalRow, payoutBankName, type PayoutAccountInput, type PayoutAccountView, type WithdrawableView, type WithdrawalState, type WithdrawalView } from "../../../schema/withdrawals";
import type { Db } from "../../db/client";
import { auditInsert } from "../../db/admin-sql";
import { payoutAccounts, virtualAccounts, withdrawals } from "./tables";
import { AppError } from "../../lib/errors";
import { log } from "../../lib/log";
import { UpstreamFault } from "../../providers/upstream-http";
import { lastNewDeviceAt, requireFreshSecondFactor, type StepUpSession } from "../accounts";
import { businessOnly, deliverEvents, getSettings, ledger, move, type PaymentDeps, rowsOf, runBatch, statement, transition, users } from "../kernel";
import { matchNames } from "./name-match";
import { accountLabel, heldStatesSql, type NewWithdrawal, stateMessage, type Withdrawal, withdrawal } from "./withdrawal-transitions";

/**
 * Cash out (issue 45, docs/decisions/071): the customer's payout account (looked up at Squad, name-matched, cooled for
 * a day), what may be withdrawn, and the withdrawal itself: held in the ledger at once, sent to Squad once with an
 * idempotent reference, followed by re-queries (a 424 or no answer is re-queried, never re-sent), credited back once
 * if it fails, is refused or is reversed later. Every change of money is a declared move (withdrawal-transitions.ts).
 */

const ngn = (kobo: number) => `₦${formatNaira(koboToNaira(kobo))}`;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** A transfer still `sending` is re-queried by a customer's read at most this often (the sweep does the rest). */
const REQUERY_EVERY_MS = 5_000;
/** Paid transfers are re-queried for a reversal this long after they were paid. */
const REVERSAL_WATCH_MS = 3 * DAY;
/** A reference Squad never received (404 on the re-query) is failed only this long after it was sent. */
const NOT_RECEIVED_GIVE_UP_MS = 30 * 60_000;

/** The start of the Lagos day (UTC+1, no daylight saving) that `now` falls in: the daily cap's window. */
export function lagosDayStart(now: number): number {
  return Math.floor((now + HOUR) / DAY) * DAY - HOUR;
}

type Limits = Awaited<ReturnType<typeof limitsOf>>;
/**
 * The withdrawal limits for one customer: the `withdrawals` setting, with the caps of the customer's discount tier
 * (earned by total deposited, schema/tiers.ts) where the setting lists that tier; a tier's cap never raises the global.
 */
async function limitsOf(db: Db, userId: string) {
  const { withdrawals: s, tiers } = await getSettings(db, ["withdrawals", "tiers"]);
  const [owner] = await db.select({ totalDepositedKobo: users.totalDepositedKobo }).from(users).where(eq(users.id, userId)).limit(1);
  const tier = tierFor(tiers, koboToNaira(owner?.totalDepositedKobo ?? 0));
  const caps = s.tier_caps?.[tier.text];
  return {
    tier: tier.text,
    minimumKobo: Math.round(s.minimum_naira * 100),
    feeKobo: Math.round(s.fee_naira * 100),
    perTransactionKobo: Math.round(Math.min(s.per_transaction_naira, caps?.per_transaction_naira ?? Infinity) * 100),
    dailyKobo: Math.round(Math.min(s.daily_naira, caps?.daily_naira ?? Infinity) * 100),
    dailyCount: s.daily_count,
    approvalAboveKobo: Math.round(s.approval_above_naira * 100),
    coolingMs: s.cooling_hours * HOUR,
    chargebackMs: s.card_chargeback_days * DAY,
  };
}

// ---------------------------------------------------------------------------------------------------------------------
// What may be withdrawn

/**
 * The money a customer may take out, in SQL (so the withdrawal's own insert can check it in its statement): what came
 * in by bank transfer, plus card deposits older than the chargeback window, less everything spent and withdrawn
 * (purchases and rentals net of their refunds, holds net of their returns, operator debits); never more than the
 * balance. Crypto, rewards (referral, margins, developers' ref shares), support's credits and review credits are
 * spendable only.
 */
function withdrawableSql(userId: string, cardCutoff: number): SQL<number> {
  return sql<number>`(SELECT MAX(0, MIN(
      (SELECT ${users.balanceKobo} FROM ${users} WHERE ${users.id} = ${userId}),
      COALESCE(SUM(CASE
        WHEN ${ledger.kind} = 'fund' AND ${ledger.key} LIKE 'fund:transfer:%' THEN ${ledger.amountKobo}
        WHEN ${ledger.kind} = 'fund' AND ${ledger.key} LIKE 'fund:squad:%' AND ${ledger.createdAt} <= ${cardCutoff} THEN ${ledger.amountKobo}
        WHEN ${ledger.kind} IN ('buy', 'refund', 'rent', 'rent_refund', 'withdraw', 'withdraw_refund') THEN ${ledger.amountKobo}
        WHEN ${ledger.kind} = 'admin' AND ${ledger.amountKobo} < 0 THEN ${ledger.amountKobo}
        ELSE 0 END), 0)))
    FROM ${ledger} WHERE ${ledger.userId} = ${userId})`;
}

interface Breakdown {
  balance: number;
  available: number;
  held: number;
  cardRecent: number;
  crypto: number;
  other: number;
}

async function breakdownOf(db: Db, userId: string, now: number, limits: Limits): Promise<Breakdown> {
  const cardCutoff = now - limits.chargebackMs;
  const { rows } = await runBatch(db, {
    rows: rowsOf(
      db
        .select({
          balance: users.balanceKobo,
          available: withdrawableSql(userId, cardCutoff),
          held: sql<number>`(SELECT COALESCE(SUM(${withdrawals.amountKobo} + ${withdrawals.feeKobo}), 0) FROM ${withdrawals} WHERE ${withdrawals.userId} = ${userId} AND ${withdrawals.status} IN (${heldStatesSql}))`,
          cardRecent: sql<number>`(SELECT COALESCE(SUM(${ledger.amountKobo}), 0) FROM ${ledger} WHERE ${ledger.userId} = ${userId} AND ${ledger.kind} = 'fund' AND ${ledger.key} LIKE 'fund:squad:%' AND ${ledger.createdAt} > ${cardCutoff})`,
          crypto: sql<number>`(SELECT COALESCE(SUM(${ledger.amountKobo}), 0) FROM ${ledger} WHERE ${ledger.userId} = ${userId} AND ${ledger.kind} = 'fund' AND ${ledger.key} LIKE 'fund:now:%')`,
          // Rewards: referral, a reseller's margins and a developer's ref shares (net of their reversals; decision 075).
          other: sql<number>`(SELECT COALESCE(SUM(${ledger.amountKobo}), 0) FROM ${ledger} WHERE ${ledger.userId} = ${userId} AND (${ledger.kind} IN ('referral', 'margin', 'ref_share') OR (${ledger.kind} = 'admin' AND ${ledger.amountKobo} > 0) OR ${ledger.key} LIKE 'fund:review:%'))`,
        })
        .from(users)
        .where(eq(users.id, userId)),
    ),
  });
  const row = rows[0];
  if (!row) throw new AppError("NOT_FOUND", "Account not found.");
  return { balance: row.balance, available: row.available, held: row.held, cardRecent: row.cardRecent, crypto: row.crypto, other: row.other };
}

// ---------------------------------------------------------------------------------------------------------------------
// The payout account

function accountView(row: typeof payoutAccounts.$inferSelect): PayoutAccountView {
  return {
    bank_code: row.bankCode,
    bank_name: payoutBankName(row.bankCode) ?? row.bankCode,
    account_last4: row.accountNumber.slice(-4),
    account_name: row.accountName,
    usable_from: new Date(row.usableFrom).toISOString(),
  };
}

async function findPayoutAccount(db: Db, userId: string) {
  const [row] = await db.select().from(payoutAccounts).where(eq(payoutAccounts.userId, userId)).limit(1);
  return row ?? null;
}

/** The name we hold for the customer: the BVN-checked name of their permanent transfer account, else none. */
async function verifiedNameOf(db: Db, userId: string): Promise<string | null> {
  const [row] = await db.select({ name: virtualAccounts.accountName }).from(virtualAccounts).where(eq(virtualAccounts.userId, userId)).limit(1);
  return row?.name ?? null;
}

/**
 * Adds (or replaces) the customer's payout account: step-up first, then Squad's lookup, then the name check. A new
 * account starts the cooling period.
 */
export async function savePayoutAccount(
  deps: PaymentDeps,
  session: StepUpSession,
  input: PayoutAccountInput & { full_name?: string },
): Promise<PayoutAccountView> {
  const db = deps.db;
  const now = deps.clock.now();
  await requireFreshSecondFactor(db, session, now);
  const bankName = payoutBankName(input.bank_code);
  if (!bankName) throw new AppError("VALIDATION_FAILED", "We do not know that bank code: choose your bank from the list.");
  const bvnName = await verifiedNameOf(db, session.user.id);
  const previous = await findPayoutAccount(db, session.user.id);
  // Without a BVN-checked name, the name first declared is the one every later account must match (docs/decisions/071).
  const declared = previous?.nameSource === "declared" ? previous.verifiedName : input.full_name?.trim() || null;
  const verifiedName = bvnName ?? declared;
  if (!verifiedName) throw new AppError("VALIDATION_FAILED", "Enter your full name as your bank holds it.");
  let found: { accountName: string } | null;
  try {
    found = await deps.provider.squadPayouts.lookup({ bankCode: input.bank_code, accountNumber: input.account_number });
  } catch (err) {
    if (err instanceof UpstreamFault) throw new AppError("UPSTREAM_UNAVAILABLE", "We could not check that account with the bank just now. Try again in a minute.");
    throw err;
  }
  if (!found) throw new AppError("UNPROCESSABLE", `${bankName} has no account ${input.account_number}. Check the number and the bank.`);
  const match = matchNames(verifiedName, found.accountName);
  if (!match.matched) throw new AppError("UNPROCESSABLE", match.reason);
  const limits = await limitsOf(db, session.user.id);
  const row = {
    userId: session.user.id,
    bankCode: input.bank_code,
    accountNumber: input.account_number,
    accountName: found.accountName,
    verifiedName,
    nameSource: bvnName ? ("bvn" as const) : ("declared" as const),
    usableFrom: now + limits.coolingMs,
    createdAt: now,
  };
  // The same account again keeps its cooling period; another account starts a new one.
  if (previous && previous.bankCode === row.bankCode && previous.accountNumber === row.accountNumber) return accountView(previous);
  await db.insert(payoutAccounts).values(row).onConflictDoUpdate({ target: payoutAccounts.userId, set: row });
  return accountView(row);
}

/** The cooling period's end, when one is running: a new payout account, or a sign-in from a new device. */
async function coolingUntil(db: Db, userId: string, account: { usableFrom: number } | null, now: number, limits: Limits): Promise<number | null> {
  const device = await lastNewDeviceAt(db, userId);
  const ends = Math.max(account?.usableFrom ?? 0, device === null ? 0 : device + limits.coolingMs);
  return ends > now ? ends : null;
}

export async function withdrawableView(db: Db, userId: string, now: number): Promise<WithdrawableView> {
  const limits = await limitsOf(db, userId);
  const [b, account] = await Promise.all([breakdownOf(db, userId, now, limits), findPayoutAccount(db, userId)]);
  const cooling = await coolingUntil(db, userId, account, now, limits);
  const reasons: string[] = [];
  if (b.cardRecent > 0) reasons.push(`${ngn(b.cardRecent)} came in by card in the last ${Math.round(limits.chargebackMs / DAY)} days: it can be withdrawn once that window has passed.`);
  if (b.crypto > 0) reasons.push(`${ngn(b.crypto)} came in by crypto: it can be spent here, or sent back to where it came from on request to support.`);
  if (b.other > 0) reasons.push(`${ngn(b.other)} of rewards and credits can be spent, not withdrawn.`);
  if (b.available < b.balance && reasons.length === 0) reasons.push("Money you spent comes out of what came in by bank transfer first.");
  return {
    balance: koboToNaira(b.balance),
    available: koboToNaira(b.available),
    held: koboToNaira(b.held),
    reasons,
    minimum: koboToNaira(limits.minimumKobo),
    fee: koboToNaira(limits.feeKobo),
    per_transaction_cap: koboToNaira(limits.perTransactionKobo),
    daily_cap: koboToNaira(limits.dailyKobo),
    approval_above: koboToNaira(limits.approvalAboveKobo),
    account: account ? accountView(account) : null,
    cooling_until: cooling === null ? null : new Date(cooling).toISOString(),
  };
}

// ---------------------------------------------------------------------------------------------------------------------
// Withdrawing

function view(w: Withdrawal): WithdrawalView {
  return {
    id: w.id,
    state: w.status,
    amount: koboToNaira(w.amountKobo),
    fee: koboToNaira(w.feeKobo),
    bank_name: payoutBankName(w.bankCode) ?? w.bankCode,
    account_last4: w.accountNumber.slice(-4),
    reference: w.reference,
    message: stateMessage(w, w.status),
    created_at: new Date(w.createdAt).toISOString(),
    updated_at: new Date(w.updatedAt).toISOString(),
  };
}

/** What a second operator's approval of a large withdrawal carries (services/console/operator-approvals.ts). */
export interface WithdrawalApprovalPayload {
  withdrawalId: string;
  userId: string;
  amountKobo: number;
  feeKobo: number;
  bankCode: string;
  accountNumber: string;
}

/** The payload of an approval request for this withdrawal; refused unless it waits for approval. */
export async function withdrawalApprovalPayload(db: Db, operatorId: string, id: string): Promise<WithdrawalApprovalPayload> {
  const w = await findWithdrawal(db, id);
  if (!w) throw new AppError("NOT_FOUND", "Withdrawal not found.");
  if (w.status !== "approval") throw new AppError("INVALID_STATE", `This withdrawal is ${w.status}, not waiting for approval.`);
  if (w.userId === operatorId) throw new AppError("FORBIDDEN", "An operator cannot approve their own withdrawal.");
  return { withdrawalId: w.id, userId: w.userId, amountKobo: w.amountKobo, feeKobo: w.feeKobo, bankCode: w.bankCode, accountNumber: w.accountNumber };
}

/**
 * The approve move as statements for the second operator's approval batch (decision 035's approvalSql): the move,
 * its audit row as the requester's change, and an assertion that the move took (a json() of non-JSON text raises and
 * rolls the whole batch back), so an approval of a withdrawal refused or decided meanwhile changes nothing.
 */
export function withdrawalApprovalSql(db: Db, p: WithdrawalApprovalPayload, requestedBy: string, reason: string, now: number) {
  const step = move(db, withdrawal.approve, p.withdrawalId, { userId: p.userId, id: p.withdrawalId, row: p, operatorId: requestedBy, reason }, now);
  return [
    ...step.statements,
    auditInsert(db, { actor: requestedBy, action: "withdrawal.approve", detail: { id: p.withdrawalId, amountKobo: p.amountKobo }, reason, subject: p.withdrawalId, previous: "approval", onlyIf: step.madeIt }, now),
    db.select({ moved: sql<number>`CASE WHEN ${step.madeIt} THEN 1 ELSE json('withdrawal not waiting for approval') END` }).from(sql`(SELECT 1) AS one`),
  ];
}

/** After a second operator approved it: send it now (a lost send is the sweep's: it sends held ones). */
export async function sendApprovedWithdrawal(deps: PaymentDeps, id: string): Promise<void> {
  const w = await findWithdrawal(deps.db, id);
  if (w?.status === "held") await sendWithdrawal(deps, w);
}

/** Kobo held for withdrawals waiting for approval or in flight (the console's "owed to customers", issue 45). */
export async function heldForWithdrawalsKobo(db: Db, includeTest = false): Promise<number> {
  const [row] = await db
    .select({ kobo: sql<number>`COALESCE(SUM(${withdrawals.amountKobo} + ${withdrawals.feeKobo}), 0)` })
    .from(withdrawals)
    .where(and(sql`${withdrawals.status} IN (${heldStatesSql})`, businessOnly(includeTest, withdrawals.userId)));
  return Number(row?.kobo ?? 0);
}

/** A withdrawal as the developer API answers it (schema/api-v1.ts v1WithdrawalSchema). */
export function toV1Withdrawal(v: WithdrawalView) {
  return {
    id: v.id,
    status: v.state,
    amount: v.amount,
    fee: v.fee,
    currency: "NGN" as const,
    bank_name: v.bank_name,
    account_last4: v.account_last4,
    reference: v.reference,
    message: v.message,
    created_at: v.created_at,
    updated_at: v.updated_at,
  };
}

/** Whole kobo from naira, or a refusal (a fraction of a kobo, not a number). */
function koboOf(amountNaira: number): number {
  const kobo = Math.round(amountNaira * 100);
  if (!Number.isSafeInteger(kobo) || kobo <= 0 || Math.abs(kobo - amountNaira * 100) > 1e-6) throw new AppError("VALIDATION_FAILED", "Amounts are in whole kobo: above zero, at most two decimals.");
  return kobo;
}

/**
 * A withdrawal: the checks a customer can be told about first (step-up, account, cooling, minimum and caps), then one
 * batch that writes the row and its hold only while the money is withdrawable and within the day's cap and count (a
 * racing second withdrawal is refused by that statement), then, unless it waits for an operator, the transfer.
 */
/**
 * Who asks for a withdrawal: a signed-in session (a fresh second factor, decision 034), or an API key (issue 45: the
 * key's scope "withdraw", which only a passkey- or TOTP-confirmed owner can grant, stands in for the step-up) acting as
 * its own account (`userId`: never a sub-account's wallet).
 */
export type WithdrawCaller = { session: StepUpSession } | { apiKey: { userId: string; actingUserId: string; scopes: readonly string[] } };

async function authorize(db: Db, caller: WithdrawCaller, now: number): Promise<string> {
  if ("session" in caller) {
    await requireFreshSecondFactor(db, caller.session, now);
    return caller.session.user.id;
  }
  const { apiKey } = caller;
  if (!apiKey.scopes.includes("withdraw")) {
    throw new AppError("FORBIDDEN", "This API key may not withdraw. Its owner can allow it in Settings → API (with a passkey or a two-factor code).");
  }
  if (apiKey.userId !== apiKey.actingUserId) throw new AppError("FORBIDDEN", "Withdrawals come out of your own wallet: move a sub-account's money back to it first (transfer-out).");
  return apiKey.userId;
}

export async function requestWithdrawal(deps: PaymentDeps, caller: WithdrawCaller, amountNaira: number): Promise<WithdrawalView> {
  const db = deps.db;
  const now = deps.clock.now();
  const amountKobo = koboOf(amountNaira);
  const limits = await limitsOf(db, "session" in caller ? caller.session.user.id : caller.apiKey.userId);
  if (amountKobo < limits.minimumKobo) throw new AppError("VALIDATION_FAILED", `The smallest withdrawal is ${ngn(limits.minimumKobo)}.`);
  if (amountKobo > limits.perTransactionKobo) throw new AppError("VALIDATION_FAILED", `One withdrawal can be at most ${ngn(limits.perTransactionKobo)} at your tier (${limits.tier}).`);
  const userId = await authorize(db, caller, now);
  const account = await findPayoutAccount(db, userId);
  if (!account) throw new AppError("INVALID_STATE", "Add the bank account to withdraw to first.");
  const cooling = await coolingUntil(db, userId, account, now, limits);
  if (cooling !== null) {
    throw new AppError("INVALID_STATE", `For your safety, withdrawals open at ${new Date(cooling).toISOString()} (24 hours after a new bank account or a sign-in from a new device).`, { cooling_until: new Date(cooling).toISOString() });
  }
  const totalKobo = amountKobo + limits.feeKobo;
  const id = `wd_${crypto.randomUUID().replaceAll("-", "").slice(0, 24)}`;
  const dayStart = lagosDayStart(now);
  const today = sql`(SELECT COALESCE(SUM(${withdrawals.amountKobo}), 0) FROM ${withdrawals} WHERE ${withdrawals.userId} = ${userId} AND ${withdrawals.createdAt} >= ${dayStart} AND ${withdrawals.status} NOT IN ('failed', 'refused', 'reversed'))`;
  const todayCount = sql`(SELECT COUNT(*) FROM ${withdrawals} WHERE ${withdrawals.userId} = ${userId} AND ${withdrawals.createdAt} >= ${dayStart} AND ${withdrawals.status} NOT IN ('failed', 'refused', 'reversed'))`;
  const within = sql`${totalKobo} <= ${withdrawableSql(userId, now - limits.chargebackMs)} AND ${today} + ${amountKobo} <= ${limits.dailyKobo} AND ${todayCount} < ${limits.dailyCount}`;
  const row: NewWithdrawal = {
    id,
    userId,
    amountKobo,
    feeKobo: limits.feeKobo,
    bankCode: account.bankCode,
    accountNumber: account.accountNumber,
    accountName: account.accountName,
    reference: deps.provider.squadPayouts.reference(id),
    createdAt: now,
    updatedAt: now,
  };
  const state = amountKobo > limits.approvalAboveKobo ? "approval" : "held";
  const { request } = await runBatch(db, { request: move(db, withdrawal.request, id, { row, state, within }, now) });
  if (!request.moved || !request.ledgerWritten) {
    const b = await breakdownOf(db, userId, now, limits);
    if (totalKobo > b.available) throw new AppError("UNPROCESSABLE", `You can withdraw up to ${ngn(b.available)} now${limits.feeKobo ? ` (the fee of ${ngn(limits.feeKobo)} included)` : ""}.`, { available: koboToNaira(b.available) });
    throw new AppError("UNPROCESSABLE", `That is above today's withdrawal limit at your tier, ${limits.tier} (${ngn(limits.dailyKobo)}, ${limits.dailyCount} withdrawals a day).`);
  }
  deps.defer(deliverEvents(deps, userId));
  const written = await findWithdrawal(db, id);
  if (!written) throw new AppError("INTERNAL", "The withdrawal was not recorded.");
  if (state === "held") return view(await sendWithdrawal(deps, written));
  return view(written);
}

export async function findWithdrawal(db: Db, id: string): Promise<Withdrawal | null> {
  const [row] = await db.select().from(withdrawals).where(eq(withdrawals.id, id)).limit(1);
  return row ?? null;
}

const told = (w: Withdrawal) => ({ userId: w.userId, id: w.id, row: w });

/**
 * Sends a held withdrawal to Squad, once: the `send` move claims it first (a second caller finds it claimed and sends
 * nothing). A 424, a timeout or an unreadable answer leaves it `sending` and is re-queried; never sent again.
 */
export async function sendWithdrawal(deps: PaymentDeps, w: Withdrawal): Promise<Withdrawal> {
  const db = deps.db;
  const claimed = await transition(db, withdrawal.send, w.id, {}, deps.clock.now());
  if (!claimed.moved) return (await findWithdrawal(db, w.id)) ?? w;
  let outcome;
  try {
    outcome = await deps.provider.squadPayouts.transfer({
      reference: w.reference,
      amountKobo: w.amountKobo,
      bankCode: w.bankCode,
      accountNumber: w.accountNumber,
      accountName: w.accountName,
      remark: `Cash out ${w.id}`,
    });
  } catch (err) {
    // Even a fault of ours after the call may have reached Squad: re-query, never re-send.
    outcome = { outcome: "unknown" as const, detail: err instanceof Error ? err.message : String(err) };
  }
  const at = deps.clock.now();
  switch (outcome.outcome) {
    case "paid":
      await transition(db, withdrawal.pay, w.id, { ...told(w), nipReference: outcome.nipReference, squadStatus: "success" }, at);
      break;
    case "refused":
      await transition(db, withdrawal.fail, w.id, { ...told(w), squadStatus: `http_${outcome.status}`, detail: outcome.message }, at);
      break;
    case "reversed":
      await transition(db, withdrawal.reverse, w.id, { ...told(w), detail: outcome.message }, at);
      break;
    case "unknown":
      await transition(db, withdrawal.note, w.id, { squadStatus: "timeout", detail: outcome.detail }, at);
      // Squad's document: a 424 "should re-query". Once now; the customer's reads and the sweep do the rest.
      await settleWithdrawal(deps, (await findWithdrawal(db, w.id)) ?? w);
      break;
  }
  deps.defer(deliverEvents(deps, w.userId));
  return (await findWithdrawal(db, w.id)) ?? w;
}

/**
 * Asks Squad where a sent (or paid) withdrawal stands and moves it: success → paid, failed → failed (credited back),
 * reversed → reversed (credited back once), pending → stays. A reference Squad never received is failed only after
 * NOT_RECEIVED_GIVE_UP_MS (it may still be on its way).
 */
export async function settleWithdrawal(deps: PaymentDeps, w: Withdrawal): Promise<void> {
  if (w.status !== "sending" && w.status !== "paid") return;
  const db = deps.db;
  let record;
  try {
    record = await deps.provider.squadPayouts.requery(w.reference);
  } catch (err) {
    log("warn", "withdrawal.requery_failed", { id: w.id, error: err instanceof Error ? err.message : String(err) });
    return;
  }
  const at = deps.clock.now();
  if (record === null) {
    if (w.status === "sending" && at - w.updatedAt > NOT_RECEIVED_GIVE_UP_MS) {
      await transition(db, withdrawal.fail, w.id, { ...told(w), squadStatus: "not_found", detail: "Squad has no transfer with this reference." }, at);
    }
    return;
  }
  if (record.status === "success" && w.status === "sending") await transition(db, withdrawal.pay, w.id, { ...told(w), nipReference: record.nipReference, squadStatus: "success" }, at);
  else if (record.status === "failed" && w.status === "sending") await transition(db, withdrawal.fail, w.id, { ...told(w), squadStatus: "failed", detail: record.description }, at);
  else if (record.status === "reversed") await transition(db, withdrawal.reverse, w.id, { ...told(w), detail: record.description || "Reversed" }, at);
  deps.defer(deliverEvents(deps, w.userId));
}

/** A customer's withdrawal (another customer's is 404); one still in flight is re-queried first, at most every 5 s. */
export async function withdrawalView(deps: PaymentDeps, userId: string, id: string): Promise<WithdrawalView> {
  const db = deps.db;
  let w = await findWithdrawal(db, id);
  if (!w || w.userId !== userId) throw new AppError("NOT_FOUND", "Withdrawal not found.");
  if (w.status === "sending" && deps.clock.now() - w.updatedAt >= REQUERY_EVERY_MS) {
    await settleWithdrawal(deps, w);
    w = (await findWithdrawal(db, id)) ?? w;
  }
  return view(w);
}

export async function listOwnWithdrawals(db: Db, userId: string): Promise<WithdrawalView[]> {
  const rows = await db.select().from(withdrawals).where(eq(withdrawals.userId, userId)).orderBy(desc(withdrawals.createdAt)).limit(20);
  return rows.map(view);
}

/**
 * The cron's part: held ones left unsent (a stopped worker) are sent, transfers in flight are re-queried, and paid
 * ones are re-queried for a reversal for REVERSAL_WATCH_MS.
 */
export async function sweepWithdrawals(deps: PaymentDeps): Promise<{ sent: number; checked: number }> {
  const db = deps.db;
  const now = deps.clock.now();
  const held = await db.select().from(withdrawals).where(and(eq(withdrawals.status, "held"), lt(withdrawals.updatedAt, now - 60_000))).limit(20);
  for (const w of held) await sendWithdrawal(deps, w);
  const inFlight = await db
    .select()
    .from(withdrawals)
    .where(sql`(${withdrawals.status} = 'sending' AND ${withdrawals.updatedAt} < ${now - REQUERY_EVERY_MS}) OR (${withdrawals.status} = 'paid' AND ${withdrawals.updatedAt} > ${now - REVERSAL_WATCH_MS})`)
    .limit(50);
  for (const w of inFlight) await settleWithdrawal(deps, w);
  return { sent: held.length, checked: inFlight.length };
}

// ---------------------------------------------------------------------------------------------------------------------
// The console


export async function listWithdrawals(db: Db, states: WithdrawalState[] | null, page: { before?: string; limit?: number } = {}): Promise<AdminWithdrawalRow[]> {
  // Newest first, paged like the audit log: `before` is the last row's id seen; (created_at, id) breaks ties so a
  // page never repeats or skips a row made in the same millisecond. An unknown `before` is an empty page, not a 500.
  let after: SQL | undefined;
  if (page.before) {
    const [mark] = await db.select({ createdAt: withdrawals.createdAt }).from(withdrawals).where(eq(withdrawals.id, page.before));
    if (!mark) return [];
    after = or(lt(withdrawals.createdAt, mark.createdAt), and(eq(withdrawals.createdAt, mark.createdAt), lt(withdrawals.id, page.before)));
  }
  const rows = await db
    .select({ w: withdrawals, email: users.email, verifiedName: payoutAccounts.verifiedName })
    .from(withdrawals)
    .innerJoin(users, eq(users.id, withdrawals.userId))
    .leftJoin(payoutAccounts, eq(payoutAccounts.userId, withdrawals.userId))
    .where(and(states && states.length ? inArray(withdrawals.status, states) : undefined, after))
    .orderBy(desc(withdrawals.createdAt), desc(withdrawals.id))
    .limit(Math.max(1, Math.min(200, Math.floor(page.limit ?? 100))));
  return rows.map(({ w, email, verifiedName }) => ({
    id: w.id,
    user_id: w.userId,
    email,
    state: w.status,
    amount: koboToNaira(w.amountKobo),
    fee: koboToNaira(w.feeKobo),
    account: accountLabel(w),
    account_name: w.accountName,
    verified_name: verifiedName,
    reference: w.reference,
    squad_status: w.squadStatus,
    detail: w.detail,
    decided_by: w.decidedBy,
    decision_reason: w.decisionReason,
    created_at: new Date(w.createdAt).toISOString(),
  }));
}

/**
 * An operator's decision on a withdrawal waiting for approval: the move and its audit row in one batch (the audit
 * row written only with the move). Approved, it is sent at once.
 */
export async function decideWithdrawal(deps: PaymentDeps, operator: { id: string; email: string }, id: string, decision: "approve" | "refuse", reason: string): Promise<AdminWithdrawalRow> {
  const db = deps.db;
  const now = deps.clock.now();
  const w = await findWithdrawal(db, id);
  if (!w) throw new AppError("NOT_FOUND", "Withdrawal not found.");
  if (w.status !== "approval") throw new AppError("INVALID_STATE", `This withdrawal is ${w.status}, not waiting for approval.`);
  if (w.userId === operator.id) throw new AppError("FORBIDDEN", "An operator cannot approve their own withdrawal.");
  const step = move(db, decision === "approve" ? withdrawal.approve : withdrawal.refuse, id, { ...told(w), operatorId: operator.email, reason }, now);
  const { decided } = await runBatch(db, {
    decided: step,
    audit: statement(auditInsert(db, { actor: operator.email, action: `withdrawal.${decision}`, detail: { id, amountKobo: w.amountKobo }, reason, subject: id, previous: w.status, onlyIf: step.madeIt }, now)),
  });
  if (!decided.moved) throw new AppError("INVALID_STATE", "Another operator decided this withdrawal first.");
  deps.defer(deliverEvents(deps, w.userId));
  if (decision === "approve") {
    const approved = await findWithdrawal(db, id);
    if (approved) await sendWithdrawal(deps, approved);
  }
  const [row] = (await listWithdrawals(db, null)).filter((r) => r.id === id);
  if (!row) throw new AppError("NOT_FOUND", "Withdrawal not found.");
  return row;
}
