import { $ } from "@hono/zod-openapi";
import type { Context } from "hono";
import type {
  listQuerySchema,
  manualEntrySchema,
  AdminTransferDeposit,
  AdminTransferReconciliation,
  AdminApproval,
  ApprovalAnswer,
  EndSessionsAnswer,
  AdminAuditRow,
  AdminCustomer,
  AdminDepositRow,
  AdminList,
  AdminMe,
  AdminMessage,
  AdminOrderRow,
  AdminReconcile,
  AdminRentalRow,
  AdminResellerRow,
  AdminResellerSubaccounts,
  AdminSettingChanged,
  AdminSettings,
  BlockAnswer,
  DepositVerifyAnswer,
  GroupMailPreview,
  GroupMailSent,
  ManualEntryAnswer,
  NotifyAnswer,
  SettleAnswer,
  ReviewDetailAnswer,
  ReviewQueueItem,
  ReviewResolveAnswer,
} from "../../schema/admin";
import { nairaToKobo } from "../../schema/money";
import { SETTING_DEFAULTS, settingSchemas, type SettingKey } from "../../schema/settings";
import type { z } from "zod";
import type { AppEnv } from "../app-env";
import { getDb } from "../db/client";
import { AppError } from "../lib/errors";
import { requireOperator } from "../middleware/operator";
import {
  applyUnsubscribe,
  approve,
  changeSettingCommand,
  customerDetail,
  endCustomerSessions,
  getQueueItem,
  groupMessage,
  holdLargeEntry,
  listApprovals,
  listAudit,
  listDeposits,
  type ListFilter,
  listOrders,
  listRentals,
  listReviewQueue,
  manualEntry,
  MAX_RECIPIENTS_PER_SEND,
  notifyCustomers,
  notifyOperators,
  type Operator,
  overview,
  recipientsFor,
  reconcileNow,
  reject,
  requestSecondFactorReset,
  resendVerification,
  resolveQueueItem,
  searchCustomers,
  sendGroupMail,
  setBlocked,
  refundKeptOrderCommand,
  settleOrder,
  settleRental,
  verifyDeposit,
  verifyQueueItem,
} from "../services/console";
import { decideWithdrawal, listTransferDeposits, listWithdrawals, reconcileTransfers, sendApprovedWithdrawal } from "../services/funding";
import { listResellers, listResellerSubaccounts, setResellerRole, walletReceives } from "../services/resellers";
import type { AdminWithdrawalRow } from "../../schema/withdrawals";
import { getSettings } from "../services/kernel";
import { UpstreamFault } from "../providers/upstream-http";
import * as admin from "../contract/admin";
import { unsubscribe } from "../contract/content";
import { nowOf, paymentDepsOf, rentalDepsOf, requestDepsOf, smsDepsOf } from "./flow-deps";
import { routeApp, type RouteApp } from "./route-app";
import { holdLargeWithdrawal, listDeadLetters, listIncidents, postIncident, replayDeadLetter, resolveIncident } from "../services/console";

const operatorOf = (c: Context<AppEnv>): Operator => ({ id: c.var.user.id, email: c.var.user.email });

/** The console refreshes its Overview when this reaches an operator's room (services/notify.ts, schema/realtime.ts). */
const changed = (c: Context<AppEnv>, topic: string) => c.executionCtx.waitUntil(notifyOperators(c.env, topic));

/** The console's list filters (schema/admin.ts listQuerySchema, already validated) as the list services read them. */
function filterOf(q: z.output<typeof listQuerySchema>): ListFilter {
  return { status: q.status, provider: q.provider, service: q.service, userId: q.user, customer: q.customer, includeTest: q.test, since: q.since, stuck: q.stuck, limit: q.limit };
}

/** A manual credit or debit: one ledger row with the operator's reason (the same route shape both ways). */
async function enterManually(c: Context<AppEnv>, direction: "credit" | "debit", userId: string, body: z.output<typeof manualEntrySchema>) {
  const entry = {
    userId,
    amountKobo: nairaToKobo(body.amount) * (direction === "credit" ? 1 : -1),
    reason: body.reason,
    customerMessage: body.customerMessage,
    entryId: body.requestId ?? crypto.randomUUID(),
  };
  // Issue 33: above the approval_threshold setting the entry waits for a second operator (202, nothing moved yet).
  const held = await holdLargeEntry(getDb(c.env.DB), operatorOf(c), entry, nowOf(c));
  if (held) {
    changed(c, "approvals");
    return c.json({ message: "Waiting for a second operator's approval (Approvals page): nothing moved yet.", ...held } satisfies ManualEntryAnswer, 202);
  }
  const result = await manualEntry(requestDepsOf(c), operatorOf(c), entry);
  changed(c, "ledger");
  return c.json({ message: direction === "credit" ? "Credited." : "Debited.", ...result } satisfies ManualEntryAnswer, 200);
}

async function block(c: Context<AppEnv>, blocked: boolean, userId: string, reason: string) {
  const result = await setBlocked(requestDepsOf(c), operatorOf(c), userId, blocked, reason);
  changed(c, "customers");
  return c.json({ message: blocked ? "Blocked: sessions ended, sockets closed." : "Unblocked.", ...result } satisfies BlockAnswer, 200);
}

/**
 * The operator console's API: its own sub-app under /api/admin, every route behind requireOperator (operator role,
 * two-factor on; anyone else gets the same 404 as a missing page). Reads use services/operator-console.ts; changes use
 * the CLI's statements or the product's own services, and each writes an audit row with its reason.
 */
export const adminRoutes: RouteApp = $(routeApp().use("*", requireOperator))
  .openapi(admin.me, (c) => c.json({ id: c.var.user.id, email: c.var.user.email, username: c.var.user.username } satisfies AdminMe))

  // ---- Overview ----
  .openapi(admin.overview, async (c) => {
    const q = c.req.valid("query");
    return c.json(await overview(getDb(c.env.DB), q.period, Date.now(), { includeTest: q.test }));
  })

  // ---- Customers ----
  .openapi(admin.customers, async (c) => {
    const q = c.req.valid("query");
    return c.json({ data: await searchCustomers(getDb(c.env.DB), q.q, 25, { includeTest: q.test }) } satisfies AdminList<AdminCustomer>);
  })

  .openapi(admin.customer, async (c) => {
    const detail = await customerDetail(getDb(c.env.DB), c.req.valid("param").id, nowOf(c));
    if (!detail) throw new AppError("NOT_FOUND", "No customer with this id.");
    return c.json(detail);
  })

  .openapi(admin.credit, async (c) => enterManually(c, "credit", c.req.valid("param").id, c.req.valid("json")))
  .openapi(admin.debit, async (c) => enterManually(c, "debit", c.req.valid("param").id, c.req.valid("json")))

  .openapi(admin.block, async (c) => block(c, true, c.req.valid("param").id, c.req.valid("json").reason))
  .openapi(admin.unblock, async (c) => block(c, false, c.req.valid("param").id, c.req.valid("json").reason))

  .openapi(admin.resendVerification, async (c) => {
    await resendVerification(requestDepsOf(c), operatorOf(c), c.req.valid("param").id, c.req.valid("json").reason);
    return c.json({ message: "Verification e-mail sent." } satisfies AdminMessage);
  })

  /** Issue 33: a reset of the customer's second factor takes a second operator's approval (202, nothing changed yet). */
  .openapi(admin.resetSecondFactor, async (c) => {
    const approval = await requestSecondFactorReset(getDb(c.env.DB), operatorOf(c), c.req.valid("param").id, c.req.valid("json").reason, nowOf(c));
    changed(c, "approvals");
    return c.json({ message: "Waiting for a second operator's approval (Approvals page): two-factor sign-in is still on.", approval } satisfies ApprovalAnswer, 202);
  })

  /** Issue 33 (ASVS 7.4.5): end every live session of the customer (or the one named); sockets close before the answer. */
  .openapi(admin.endSessions, async (c) => {
    const body = c.req.valid("json");
    const revoked = await endCustomerSessions(requestDepsOf(c), operatorOf(c), c.req.valid("param").id, body.reason, body.sessionId);
    changed(c, "customers");
    return c.json({ message: revoked === 1 ? "1 session ended; its open tabs were closed." : `${revoked} sessions ended; their open tabs were closed.`, revoked } satisfies EndSessionsAnswer);
  })

  // ---- Approvals: changes that take a second operator (issue 33, services/operator-approvals.ts) ----
  .openapi(admin.approvals, async (c) =>
    c.json({ data: await listApprovals(getDb(c.env.DB), operatorOf(c), c.req.valid("query").status, nowOf(c)) } satisfies AdminList<AdminApproval>),
  )

  .openapi(admin.approve, async (c) => {
    const { approval, balance, withdrawalId } = await approve(requestDepsOf(c), operatorOf(c), c.req.valid("param").id, c.req.valid("json").reason, nowOf(c));
    // Issue 45: a large withdrawal approved by the second operator is sent now.
    if (withdrawalId) await sendApprovedWithdrawal(paymentDepsOf(c), withdrawalId);
    changed(c, approval.kind === "ledger_entry" ? "ledger" : approval.kind === "setting" ? "settings" : approval.kind === "withdrawal" ? "withdrawals" : "customers");
    return c.json({ message: `Approved: ${approval.summary}.`, approval, ...(balance === undefined ? {} : { balance }) } satisfies ApprovalAnswer & { balance?: number });
  })

  .openapi(admin.reject, async (c) => {
    const approval = await reject(getDb(c.env.DB), operatorOf(c), c.req.valid("param").id, c.req.valid("json").reason, nowOf(c));
    changed(c, "approvals");
    return c.json({ message: `Rejected: ${approval.summary}.`, approval } satisfies ApprovalAnswer);
  })

  // ---- Deposits, orders, rentals ----
  .openapi(admin.deposits, async (c) => {
    const q = c.req.valid("query");
    return c.json({ data: await listDeposits(getDb(c.env.DB), { ...filterOf(q), channel: q.channel }, nowOf(c)) } satisfies AdminList<AdminDepositRow>);
  })

  /** Verify again with the provider: the same confirmation the webhook and the sweep run (credited once, by ledger key). */
  .openapi(admin.verifyDeposit, async (c) => {
    const answer = await verifyDeposit(paymentDepsOf(c), operatorOf(c), c.req.valid("param").id, c.req.valid("json").reason);
    changed(c, "deposits");
    return c.json(answer satisfies DepositVerifyAnswer);
  })

  // ---- Deposits: bank transfers (issue 31): every arrival with its state, and the daily reconciliation ----
  .openapi(admin.transfers, async (c) =>
    c.json({ data: await listTransferDeposits(getDb(c.env.DB), { state: c.req.valid("query").state }) } satisfies AdminList<AdminTransferDeposit>),
  )
  .openapi(admin.withdrawals, async (c) => {
    const { state, before, limit } = c.req.valid("query");
    return c.json({ data: await listWithdrawals(getDb(c.env.DB), state ? [state] : null, { before, limit }) } satisfies AdminList<AdminWithdrawalRow>);
  })
  /** Approve or refuse a withdrawal waiting for approval, with a reason: the move and its audit row are one batch. */
  .openapi(admin.approveWithdrawal, async (c) => {
    const { id } = c.req.valid("param");
    const { reason } = c.req.valid("json");
    // Above the approval_threshold a second operator approves it (decision 035's rule, issue 45): 202, still held.
    const approval = await holdLargeWithdrawal(getDb(c.env.DB), operatorOf(c), id, reason, nowOf(c));
    if (approval) {
      changed(c, "approvals");
      const [row] = (await listWithdrawals(getDb(c.env.DB), ["approval"])).filter((r) => r.id === id);
      return c.json({ data: row!, approval, message: "Waiting for a second operator's approval (Approvals page): the money stays held." }, 202);
    }
    const data = await decideWithdrawal(paymentDepsOf(c), operatorOf(c), id, "approve", reason);
    changed(c, "withdrawals");
    return c.json({ data }, 200);
  })
  .openapi(admin.refuseWithdrawal, async (c) => {
    const data = await decideWithdrawal(paymentDepsOf(c), operatorOf(c), c.req.valid("param").id, "refuse", c.req.valid("json").reason);
    changed(c, "withdrawals");
    return c.json({ data });
  })
  .openapi(admin.reconcileTransfers, async (c) =>
    c.json((await reconcileTransfers(paymentDepsOf(c), c.req.valid("query").date)) satisfies AdminTransferReconciliation),
  )

  // ---- Deposits: the review queue (services/review-queue.ts, docs/decisions/023) ----
  .openapi(admin.reviews, async (c) =>
    c.json({ data: await listReviewQueue(getDb(c.env.DB), { status: c.req.valid("query").status }, nowOf(c)) } satisfies AdminList<ReviewQueueItem>),
  )

  /** One item and the provider's word on it now ("verify again"; nothing changes). A provider that cannot be read is shown, not a 502. */
  .openapi(admin.review, async (c) => {
    const review = await getQueueItem(getDb(c.env.DB), c.req.valid("param").id, nowOf(c));
    if (!review) throw new AppError("NOT_FOUND", "No review with this id.");
    let verification = null;
    let verifyError: string | null = null;
    try {
      verification = await verifyQueueItem(paymentDepsOf(c), review);
    } catch (err) {
      if (!(err instanceof UpstreamFault)) throw err;
      verifyError = `${review.kind === "card" ? "Squad" : "NOWPayments"} could not be reached: try again.`;
    }
    return c.json({ review, verification, verifyError } satisfies ReviewDetailAnswer);
  })

  /** Verify again with the provider, then credit the right amount or refuse, once (a second decision is 409). Audited. */
  .openapi(admin.resolveReview, async (c) => {
    const body = c.req.valid("json");
    const result = await resolveQueueItem(paymentDepsOf(c), { id: c.req.valid("param").id, operator: operatorOf(c), action: body.action, amount: body.amount, reason: body.reason, customerMessage: body.customerMessage });
    changed(c, "deposits");
    return c.json({ message: result.review.status === "credited" ? "Credited." : "Refused.", ...result } satisfies ReviewResolveAnswer);
  })

  .openapi(admin.orders, async (c) => c.json({ data: await listOrders(getDb(c.env.DB), filterOf(c.req.valid("query")), nowOf(c)) } satisfies AdminList<AdminOrderRow>))

  .openapi(admin.rentals, async (c) => c.json({ data: await listRentals(getDb(c.env.DB), filterOf(c.req.valid("query")), nowOf(c)) } satisfies AdminList<AdminRentalRow>))

  .openapi(admin.settleOrder, async (c) => {
    const result = await settleOrder(smsDepsOf(c), operatorOf(c), c.req.valid("param").id, c.req.valid("json").reason);
    changed(c, "orders");
    return c.json(result satisfies SettleAnswer);
  })

  .openapi(admin.refundKeptOrder, async (c) => {
    const db = getDb(c.env.DB);
    const result = await refundKeptOrderCommand(smsDepsOf(c), operatorOf(c), c.req.valid("param").id, c.req.valid("json").reason, (userId) => walletReceives(db, userId));
    changed(c, "orders");
    return c.json(result satisfies SettleAnswer);
  })

  .openapi(admin.settleRental, async (c) => {
    const result = await settleRental(rentalDepsOf(c), operatorOf(c), c.req.valid("param").id, c.req.valid("json").reason);
    changed(c, "rentals");
    return c.json(result satisfies SettleAnswer);
  })

  // ---- Resellers (issue 46) ----
  .openapi(admin.resellers, async (c) => c.json({ data: await listResellers(getDb(c.env.DB)) } satisfies AdminList<AdminResellerRow>))
  // A read, like every console list: not audited (the audit log records changes, decision 013).
  .openapi(admin.resellerSubaccounts, async (c) => c.json((await listResellerSubaccounts(getDb(c.env.DB), c.req.valid("param").id, c.req.valid("query"))) satisfies AdminResellerSubaccounts))

  .openapi(admin.setResellerRole, async (c) => {
    const data = await setResellerRole(getDb(c.env.DB), operatorOf(c).email, c.req.valid("json"), nowOf(c));
    changed(c, "resellers");
    return c.json({ data } satisfies AdminList<AdminResellerRow>);
  })

  // ---- The public status page's incidents (issue 32) ----
  .openapi(admin.incidents, async (c) => c.json({ data: await listIncidents(getDb(c.env.DB)) }))

  .openapi(admin.postIncident, async (c) => {
    const incident = await postIncident(getDb(c.env.DB), operatorOf(c), c.req.valid("json"), nowOf(c));
    changed(c, "status");
    return c.json(incident, 201);
  })

  .openapi(admin.resolveIncident, async (c) => {
    const { id } = c.req.valid("param");
    const incident = await resolveIncident(getDb(c.env.DB), operatorOf(c), id, c.req.valid("json").reason, nowOf(c));
    changed(c, "status");
    return c.json(incident);
  })

  // ---- Deliveries given up (issue 44, decision 073) ----
  .openapi(admin.deadLetters, async (c) => c.json({ data: await listDeadLetters(getDb(c.env.DB)) }))

  .openapi(admin.replayDeadLetter, async (c) => {
    const services = c.var.services;
    const letter = await replayDeadLetter(services, operatorOf(c), c.req.valid("param").id, c.req.valid("json").reason, nowOf(c));
    return c.json(letter);
  })

  // ---- Prices and content (settings) ----
  .openapi(admin.settings, async (c) => {
    const db = getDb(c.env.DB);
    const keys = Object.keys(settingSchemas) as SettingKey[];
    const [values, history] = await Promise.all([
      getSettings(db, keys),
      listAudit(db, { action: "setting.", limit: 100 }),
    ]);
    return c.json({ settings: values, defaults: SETTING_DEFAULTS, history } satisfies AdminSettings);
  })

  .openapi(admin.changeSetting, async (c) => {
    const result = await changeSettingCommand(getDb(c.env.DB), operatorOf(c), c.req.valid("param").key, c.req.valid("json"), nowOf(c));
    // Issue 33: the two-operator threshold itself changes only with a second operator's approval (202).
    if ("held" in result) {
      changed(c, "approvals");
      return c.json(result.held satisfies ApprovalAnswer, 202);
    }
    changed(c, "settings");
    return c.json(result.changed satisfies AdminSettingChanged, 200);
  })

  // ---- Messages ----
  .openapi(admin.notify, async (c) => c.json((await notifyCustomers(requestDepsOf(c), operatorOf(c), c.req.valid("json"))) satisfies NotifyAnswer))

  .openapi(admin.previewMail, async (c) => {
    const body = c.req.valid("json");
    const db = getDb(c.env.DB);
    const recipients = await recipientsFor(db, body.audience, nowOf(c));
    const sample = recipients[0] ?? { id: "preview", email: "customer@example.com", username: "Customer" };
    const message = await groupMessage(c.var.config.publicUrl, c.var.config.jwtSecret, sample, body.subject, body.body);
    return c.json({
      count: Math.min(recipients.length, MAX_RECIPIENTS_PER_SEND),
      more: recipients.length > MAX_RECIPIENTS_PER_SEND,
      preview: { to: message.to, subject: message.subject, text: message.text },
    } satisfies GroupMailPreview);
  })

  .openapi(admin.sendMail, async (c) => c.json((await sendGroupMail(requestDepsOf(c), operatorOf(c), c.req.valid("json"))) satisfies GroupMailSent))

  // ---- Audit and reconcile ----
  .openapi(admin.audit, async (c) => {
    const q = c.req.valid("query");
    return c.json({ data: await listAudit(getDb(c.env.DB), { actor: q.actor, action: q.action, subject: q.subject, before: q.before, limit: q.limit }) } satisfies AdminList<AdminAuditRow>);
  })

  .openapi(admin.reconcile, async (c) => c.json((await reconcileNow(getDb(c.env.DB), nowOf(c))) satisfies AdminReconcile));
/**
 * The unsubscribe link at the foot of every group e-mail (signed, no sign-in needed: it is opened from a mail client).
 * Public, so it lives outside the operator gate.
 */
export const unsubscribeRoutes: RouteApp = routeApp().openapi(unsubscribe, async (c) => {
  const { u: userId, t: signature } = c.req.valid("query");
  const ok = userId.length > 0 && signature.length > 0 && (await applyUnsubscribe(getDb(c.env.DB), c.var.config.jwtSecret, userId, signature, nowOf(c)));
  const text = ok ? "You are unsubscribed: we will not send you these e-mails again." : "This unsubscribe link is not valid.";
  return c.html(`<!doctype html><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>Unsubscribe</title><p style="font-family:system-ui;padding:2rem">${text}</p>`, ok ? 200 : 404);
});
