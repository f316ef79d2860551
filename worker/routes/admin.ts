import { z } from "zod";
import { Hono, type Context } from "hono";
import { createFactory } from "hono/factory";
import {
  groupMailSchema,
  groupMailSendSchema,
  manualEntrySchema,
  notifySchema,
  periodSchema,
  reasonSchema,
  reviewListQuerySchema,
  transferListQuerySchema,
  type AdminTransferDeposit,
  type AdminTransferReconciliation,
  reviewResolveSchema,
  settingChangeSchema,
  approvalDecisionSchema,
  approvalListQuerySchema,
  endSessionsSchema,
  type AdminApproval,
  type ApprovalAnswer,
  type EndSessionsAnswer,
  type AdminAuditRow,
  type AdminCustomer,
  type AdminDepositRow,
  type AdminList,
  type AdminMe,
  type AdminMessage,
  type AdminOrderRow,
  type AdminReconcile,
  type AdminRentalRow,
  type AdminSettingChanged,
  type AdminSettings,
  type BlockAnswer,
  type DepositVerifyAnswer,
  type GroupMailPreview,
  type GroupMailSent,
  type ManualEntryAnswer,
  type NotifyAnswer,
  type SettleAnswer,
  type ReviewDetailAnswer,
  type ReviewQueueItem,
  type ReviewResolveAnswer,
} from "../../schema/admin";
import { nairaToKobo } from "../../schema/money";
import { SETTING_DEFAULTS, settingSchemas, type SettingKey } from "../../schema/settings";
import type { AppEnv } from "../app-env";
import { sqlString } from "../db/admin-sql";
import { getDb } from "../db/client";
import { AppError } from "../lib/errors";
import { log } from "../lib/log";
import { validate } from "../lib/validate";
import { requireOperator } from "../middleware/operator";
import { emailSenderFor } from "../providers/email/select";
import { createEmailVerification, sendAccountEmail, verificationEmail, verificationLink } from "../services/accounts";
import { applyUnsubscribe, approve, audit, changeSetting, customerDetail, endCustomerSessions, findCustomer, findDeposit, getQueueItem, GROUP_MAIL_LIMIT, groupMessage, holdLargeEntry, listApprovals, listAudit, listDeposits, type ListFilter, listOrders, listRentals, listReviewQueue, manualEntry, MAX_RECIPIENTS_PER_SEND, notifyOperators, onlineCustomerIds, type Operator, overview, recipientsFor, reconcileNow, reject, requestSecondFactorReset, requestThresholdChange, resolveQueueItem, searchCustomers, sendToast, setBlocked, verifyQueueItem } from "../services/console";
import { confirmCardPayment, listTransferDeposits, recheckTransfer, reconcileTransfers, settleInvoice } from "../services/funding";
import { enforceRateLimit, getSettings } from "../services/kernel";
import { settleRentalNow } from "../services/rent";
import { settleSmsOrderNow } from "../services/sms";
import { UpstreamFault } from "../providers/upstream-http";
import { paymentDepsOf, rentalDepsOf, smsDepsOf } from "./flow-deps";

const operatorOf = (c: Context<AppEnv>): Operator => ({ id: c.var.user.id, email: c.var.user.email });

/** The console refreshes its Overview when this reaches an operator's room (services/notify.ts, schema/realtime.ts). */
const changed = (c: Context<AppEnv>, topic: string) => c.executionCtx.waitUntil(notifyOperators(c.env, topic));

/** The console's "show test activity" toggle (?test=1): sandbox accounts' rows are left out unless it is on. */
const includesTest = (c: Context<AppEnv>) => c.req.query("test") === "1";

function filterOf(c: Context<AppEnv>): ListFilter {
  const q = c.req.query();
  const since = q.since ? Number(q.since) : undefined;
  return {
    status: q.status || undefined,
    provider: q.provider || undefined,
    service: q.service || undefined,
    userId: q.user || undefined,
    customer: q.customer || undefined,
    includeTest: includesTest(c),
    since: Number.isFinite(since) ? since : undefined,
    stuck: q.stuck === "1" || q.stuck === "true",
    limit: q.limit ? Number(q.limit) || undefined : undefined,
  };
}

const factory = createFactory<AppEnv>();

/** A manual credit or debit: one ledger row with the operator's reason (the same route shape both ways). */
const manualEntryHandlers = (direction: "credit" | "debit") =>
  factory.createHandlers(validate("json", manualEntrySchema), async (c) => {
    const body = c.req.valid("json");
    const entry = {
      userId: c.req.param("id") ?? "",
      amountKobo: nairaToKobo(body.amount) * (direction === "credit" ? 1 : -1),
      reason: body.reason,
      customerMessage: body.customerMessage,
      entryId: body.requestId ?? crypto.randomUUID(),
    };
    // Issue 33: above the approval_threshold setting the entry waits for a second operator (202, nothing moved yet).
    const held = await holdLargeEntry(c, operatorOf(c), entry);
    if (held) {
      changed(c, "approvals");
      return c.json({ message: "Waiting for a second operator's approval (Approvals page): nothing moved yet.", ...held } satisfies ManualEntryAnswer, 202);
    }
    const result = await manualEntry(c, operatorOf(c), entry);
    changed(c, "ledger");
    return c.json({ message: direction === "credit" ? "Credited." : "Debited.", ...result } satisfies ManualEntryAnswer);
  });

const blockHandlers = (block: boolean) =>
  factory.createHandlers(validate("json", reasonSchema), async (c) => {
    const result = await setBlocked(c, operatorOf(c), c.req.param("id") ?? "", block, c.req.valid("json").reason);
    changed(c, "customers");
    return c.json({ message: block ? "Blocked: sessions ended, sockets closed." : "Unblocked.", ...result } satisfies BlockAnswer);
  });

/**
 * The operator console's API: its own sub-app under /api/admin, every route behind requireOperator (operator role,
 * two-factor on; anyone else gets the same 404 as a missing page). Reads use services/operator-console.ts; changes use
 * the CLI's statements or the product's own services, and each writes an audit row with its reason.
 */
export const adminRoutes = new Hono<AppEnv>()
  .use("*", requireOperator)

  .get("/me", (c) => c.json({ id: c.var.user.id, email: c.var.user.email, username: c.var.user.username } satisfies AdminMe))

  // ---- Overview ----
  .get("/overview", async (c) => {
    const parsed = periodSchema.safeParse(c.req.query("period") ?? "today");
    if (!parsed.success) throw new AppError("VALIDATION_FAILED", "period must be today, 7d or 30d.", { field: "period" });
    return c.json(await overview(getDb(c.env.DB), parsed.data, Date.now(), { includeTest: includesTest(c) }));
  })

  // ---- Customers ----
  .get("/customers", async (c) => c.json({ data: await searchCustomers(getDb(c.env.DB), c.req.query("q") ?? "", 25, { includeTest: includesTest(c) }) } satisfies AdminList<AdminCustomer>))

  .get("/customers/:id", async (c) => {
    const detail = await customerDetail(getDb(c.env.DB), c.req.param("id"));
    if (!detail) throw new AppError("NOT_FOUND", "No customer with this id.");
    return c.json(detail);
  })

  .post("/customers/:id/credit", ...manualEntryHandlers("credit"))
  .post("/customers/:id/debit", ...manualEntryHandlers("debit"))

  .post("/customers/:id/block", ...blockHandlers(true))
  .post("/customers/:id/unblock", ...blockHandlers(false))

  .post("/customers/:id/resend-verification", validate("json", reasonSchema), async (c) => {
    const db = getDb(c.env.DB);
    const customer = await findCustomer(db, c.req.param("id"));
    if (customer.emailVerifiedAt !== null) throw new AppError("INVALID_STATE", "This customer's e-mail address is already verified.");
    const link = await createEmailVerification(db, customer.id);
    await sendAccountEmail(c, verificationEmail(customer, verificationLink(c.var.config.webClient, link)), "verification");
    await audit(c.env.DB, { actor: operatorOf(c).email, action: "user.resend_verification", detail: { userId: customer.id }, reason: c.req.valid("json").reason, subject: customer.id });
    return c.json({ message: "Verification e-mail sent." } satisfies AdminMessage);
  })

  /** Issue 33: a reset of the customer's second factor takes a second operator's approval (202, nothing changed yet). */
  .post("/customers/:id/reset-2fa", validate("json", reasonSchema), async (c) => {
    const approval = await requestSecondFactorReset(c, operatorOf(c), c.req.param("id"), c.req.valid("json").reason);
    changed(c, "approvals");
    return c.json({ message: "Waiting for a second operator's approval (Approvals page): two-factor sign-in is still on.", approval } satisfies ApprovalAnswer, 202);
  })

  /** Issue 33 (ASVS 7.4.5): end every live session of the customer (or the one named); sockets close before the answer. */
  .post("/customers/:id/sessions/revoke", validate("json", endSessionsSchema), async (c) => {
    const body = c.req.valid("json");
    const revoked = await endCustomerSessions(c, operatorOf(c), c.req.param("id"), body.reason, body.sessionId);
    changed(c, "customers");
    return c.json({ message: revoked === 1 ? "1 session ended; its open tabs were closed." : `${revoked} sessions ended; their open tabs were closed.`, revoked } satisfies EndSessionsAnswer);
  })

  // ---- Approvals: changes that take a second operator (issue 33, services/operator-approvals.ts) ----
  .get("/approvals", validate("query", approvalListQuerySchema), async (c) =>
    c.json({ data: await listApprovals(getDb(c.env.DB), operatorOf(c), c.req.valid("query").status) } satisfies AdminList<AdminApproval>),
  )

  .post("/approvals/:id/approve", validate("json", approvalDecisionSchema), async (c) => {
    const { approval, balance } = await approve(c, operatorOf(c), c.req.param("id"), c.req.valid("json").reason);
    changed(c, approval.kind === "ledger_entry" ? "ledger" : approval.kind === "setting" ? "settings" : "customers");
    return c.json({ message: `Approved: ${approval.summary}.`, approval, ...(balance === undefined ? {} : { balance }) } satisfies ApprovalAnswer & { balance?: number });
  })

  .post("/approvals/:id/reject", validate("json", approvalDecisionSchema), async (c) => {
    const approval = await reject(c, operatorOf(c), c.req.param("id"), c.req.valid("json").reason);
    changed(c, "approvals");
    return c.json({ message: `Rejected: ${approval.summary}.`, approval } satisfies ApprovalAnswer);
  })

  // ---- Deposits, orders, rentals ----
  .get("/deposits", async (c) => {
    const channel = c.req.query("channel");
    return c.json({ data: await listDeposits(getDb(c.env.DB), { ...filterOf(c), channel: channel === "card" || channel === "crypto" || channel === "transfer" ? channel : undefined }) } satisfies AdminList<AdminDepositRow>);
  })

  /** Verify again with the provider: the same confirmation the webhook and the sweep run (credited once, by ledger key). */
  .post("/deposits/:id/verify", validate("json", reasonSchema), async (c) => {
    const db = getDb(c.env.DB);
    const id = c.req.param("id");
    const before = await findDeposit(db, id);
    if (!before) throw new AppError("NOT_FOUND", "No deposit with this id.");
    const deps = paymentDepsOf(c);
    if (before.provider === "squad") await confirmCardPayment(deps, id);
    else if (before.provider === "squad_transfer") await recheckTransfer(deps, id);
    else await settleInvoice(deps, id);
    const after = await findDeposit(db, id);
    await audit(c.env.DB, {
      actor: operatorOf(c).email,
      action: "deposit.verify",
      detail: { paymentId: id, status: after?.status },
      reason: c.req.valid("json").reason,
      subject: id,
      previousSql: sqlString(JSON.stringify(before.status)),
    });
    changed(c, "deposits");
    return c.json({ id, before: before.status, status: after?.status ?? before.status } satisfies DepositVerifyAnswer);
  })

  // ---- Deposits: bank transfers (issue 31): every arrival with its state, and the daily reconciliation ----
  .get("/transfers", validate("query", transferListQuerySchema), async (c) =>
    c.json({ data: await listTransferDeposits(getDb(c.env.DB), { state: c.req.valid("query").state }) } satisfies AdminList<AdminTransferDeposit>),
  )
  .get("/transfers/reconcile", validate("query", z.object({ date: z.string({ message: "date must be YYYY-MM-DD" }) })), async (c) =>
    c.json((await reconcileTransfers(paymentDepsOf(c), c.req.valid("query").date)) satisfies AdminTransferReconciliation),
  )

  // ---- Deposits: the review queue (services/review-queue.ts, docs/decisions/023) ----
  .get("/reviews", validate("query", reviewListQuerySchema), async (c) =>
    c.json({ data: await listReviewQueue(getDb(c.env.DB), { status: c.req.valid("query").status }) } satisfies AdminList<ReviewQueueItem>),
  )

  /** One item and the provider's word on it now ("verify again"; nothing changes). A provider that cannot be read is shown, not a 502. */
  .get("/reviews/:id", async (c) => {
    const review = await getQueueItem(getDb(c.env.DB), c.req.param("id"));
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
  .post("/reviews/:id/resolve", validate("json", reviewResolveSchema), async (c) => {
    const body = c.req.valid("json");
    const result = await resolveQueueItem(paymentDepsOf(c), { id: c.req.param("id"), operator: operatorOf(c), action: body.action, amount: body.amount, reason: body.reason });
    changed(c, "deposits");
    return c.json({ message: result.review.status === "credited" ? "Credited." : "Refused.", ...result } satisfies ReviewResolveAnswer);
  })

  .get("/orders", async (c) => c.json({ data: await listOrders(getDb(c.env.DB), filterOf(c)) } satisfies AdminList<AdminOrderRow>))

  .get("/rentals", async (c) => c.json({ data: await listRentals(getDb(c.env.DB), filterOf(c)) } satisfies AdminList<AdminRentalRow>))

  .post("/orders/:id/settle", validate("json", reasonSchema), async (c) => {
    const id = c.req.param("id");
    const result = await settleSmsOrderNow(smsDepsOf(c), id);
    await audit(c.env.DB, { actor: operatorOf(c).email, action: "order.settle", detail: { orderId: id, ...result }, reason: c.req.valid("json").reason, subject: id, previousSql: sqlString(JSON.stringify(result.from)) });
    changed(c, "orders");
    return c.json(result satisfies SettleAnswer);
  })

  .post("/rentals/:id/settle", validate("json", reasonSchema), async (c) => {
    const id = c.req.param("id");
    const result = await settleRentalNow(rentalDepsOf(c), id);
    await audit(c.env.DB, { actor: operatorOf(c).email, action: "rental.settle", detail: { rentalId: id, ...result }, reason: c.req.valid("json").reason, subject: id, previousSql: sqlString(JSON.stringify(result.from)) });
    changed(c, "rentals");
    return c.json(result satisfies SettleAnswer);
  })

  // ---- Prices and content (settings) ----
  .get("/settings", async (c) => {
    const db = getDb(c.env.DB);
    const keys = Object.keys(settingSchemas) as SettingKey[];
    const [values, history] = await Promise.all([
      getSettings(db, keys),
      listAudit(db, { action: "setting.", limit: 100 }),
    ]);
    return c.json({ settings: values, defaults: SETTING_DEFAULTS, history } satisfies AdminSettings);
  })

  .patch("/settings/:key", validate("json", settingChangeSchema), async (c) => {
    const key = c.req.param("key");
    const body = c.req.valid("json");
    // Issue 33: the two-operator threshold itself changes only with a second operator's approval.
    if (key === "approval_threshold") {
      const approval = await requestThresholdChange(c, operatorOf(c), body.value, body.reason);
      changed(c, "approvals");
      return c.json({ message: "Waiting for a second operator's approval (Approvals page).", approval } satisfies ApprovalAnswer, 202);
    }
    await changeSetting(c.env.DB, operatorOf(c), key, body.value, body.reason);
    changed(c, "settings");
    const value = (await getSettings(getDb(c.env.DB), [key as SettingKey]))[key as SettingKey];
    return c.json({ key, value } satisfies AdminSettingChanged);
  })

  // ---- Messages ----
  .post("/notify", validate("json", notifySchema), async (c) => {
    const body = c.req.valid("json");
    const db = getDb(c.env.DB);
    let ids: string[];
    if (body.target === "customer") {
      if (!body.userId) throw new AppError("VALIDATION_FAILED", "Choose the customer to notify.", { field: "userId" });
      ids = [(await findCustomer(db, body.userId)).id];
    } else ids = await onlineCustomerIds(db);
    const sent = await sendToast(c, ids, { kind: "toast", type: body.type, message: body.message });
    await audit(c.env.DB, {
      actor: operatorOf(c).email,
      action: "message.notify",
      detail: { target: body.target, userId: body.userId ?? null, type: body.type, message: body.message, recipients: sent },
      reason: body.reason,
      subject: body.userId ?? null,
    });
    return c.json({ recipients: sent } satisfies NotifyAnswer);
  })

  .post("/email/preview", validate("json", groupMailSchema), async (c) => {
    const body = c.req.valid("json");
    const db = getDb(c.env.DB);
    const recipients = await recipientsFor(db, body.audience);
    const sample = recipients[0] ?? { id: "preview", email: "customer@example.com", username: "Customer" };
    const message = await groupMessage(c.var.config.publicUrl, c.var.config.jwtSecret, sample, body.subject, body.body);
    return c.json({
      count: Math.min(recipients.length, MAX_RECIPIENTS_PER_SEND),
      more: recipients.length > MAX_RECIPIENTS_PER_SEND,
      preview: { to: message.to, subject: message.subject, text: message.text },
    } satisfies GroupMailPreview);
  })

  .post("/email/send", validate("json", groupMailSendSchema), async (c) => {
    const body = c.req.valid("json");
    const db = getDb(c.env.DB);
    const recipients = (await recipientsFor(db, body.audience)).slice(0, MAX_RECIPIENTS_PER_SEND);
    if (recipients.length !== body.expectedCount) {
      throw new AppError("CONFLICT", `The group now has ${recipients.length} recipients, not ${body.expectedCount}: preview it again before sending.`, { count: recipients.length });
    }
    await enforceRateLimit(db, `operator-mail:${operatorOf(c).id}`, GROUP_MAIL_LIMIT);
    await audit(c.env.DB, {
      actor: operatorOf(c).email,
      action: "message.email",
      detail: { audience: body.audience, subject: body.subject, recipients: recipients.length },
      reason: body.reason,
    });
    const origin = c.var.config.publicUrl;
    const sender = emailSenderFor(c.env, c.var.config, db);
    const sendAll = async () => {
      let failed = 0;
      for (const to of recipients) {
        try {
          await sender.send(await groupMessage(origin, c.var.config.jwtSecret, to, body.subject, body.body));
        } catch {
          failed += 1;
        }
      }
      if (failed > 0) log("warn", "group e-mail: some not delivered", { rid: c.var.requestId, failed, total: recipients.length });
    };
    if (sender.sendInBackground) c.executionCtx.waitUntil(sendAll());
    else await sendAll();
    return c.json({ sent: recipients.length } satisfies GroupMailSent);
  })

  // ---- Audit and reconcile ----
  .get("/audit", async (c) => {
    const q = c.req.query();
    return c.json({
      data: await listAudit(getDb(c.env.DB), {
        actor: q.actor || undefined,
        action: q.action || undefined,
        subject: q.subject || undefined,
        before: q.before ? Number(q.before) || undefined : undefined,
        limit: q.limit ? Number(q.limit) || undefined : undefined,
      }),
    } satisfies AdminList<AdminAuditRow>);
  })

  .get("/reconcile", async (c) => c.json((await reconcileNow(getDb(c.env.DB))) satisfies AdminReconcile));
/**
 * The unsubscribe link at the foot of every group e-mail (signed, no sign-in needed: it is opened from a mail client).
 * Public, so it lives outside the operator gate.
 */
export const unsubscribeRoutes = new Hono<AppEnv>().get("/unsubscribe", async (c) => {
  const userId = c.req.query("u") ?? "";
  const signature = c.req.query("t") ?? "";
  const ok = userId.length > 0 && signature.length > 0 && (await applyUnsubscribe(getDb(c.env.DB), c.var.config.jwtSecret, userId, signature));
  const text = ok ? "You are unsubscribed: we will not send you these e-mails again." : "This unsubscribe link is not valid.";
  return c.html(`<!doctype html><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>Unsubscribe</title><p style="font-family:system-ui;padding:2rem">${text}</p>`, ok ? 200 : 404);
});
