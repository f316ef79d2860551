import type { AdminSettingChanged, ApprovalAnswer, DepositVerifyAnswer, GroupMailSent, NotifyAnswer, RefundKeptAnswer, SettleAnswer } from "../../../schema/admin";
import type { SettingKey } from "../../../schema/settings";
import { auditInsert } from "../../db/admin-sql";
import type { Db } from "../../db/client";
import { AppError } from "../../lib/errors";
import { log } from "../../lib/log";
import { emailVerificationInsert, sendAccountEmail, verificationEmail, verificationLink } from "../accounts";
import { confirmCardPayment, recheckTransfer, settleInvoice } from "../funding";
import { enforceRateLimit, getSettings, type PaymentDeps, type RentalDeps, type RequestDeps, type SmsDeps } from "../kernel";
import { settleRentalNow } from "../rent";
import { refundKeptSmsOrder, settleSmsOrderNow } from "../sms";
import { audit, changeSetting, findCustomer, onlineCustomerIds, runAdminChange, sendToast, type Operator } from "./operator-actions";
import { requestThresholdChange } from "./operator-approvals";
import { findDeposit } from "../funding";
import { GROUP_MAIL_LIMIT, groupMessage, MAX_RECIPIENTS_PER_SEND, recipientsFor } from "./operator-mail";

/**
 * The operator console's commands that the routes used to run themselves (issue 29): a route validates its params,
 * query and body with schema/admin.ts, calls one of these, and answers its result as JSON. A command that changes a
 * row of ours writes that change and its audit row in ONE D1 batch (never one without the other); a command whose
 * change is another flow's guarded transition (settle, verify again) records what the flow did.
 */

/** A fresh e-mail verification link for the customer: the link's row and the audit row in one batch, then the e-mail. */
export async function resendVerification(deps: RequestDeps, operator: Operator, userId: string, reason: string): Promise<void> {
  const { db } = deps;
  const customer = await findCustomer(db, userId);
  if (customer.emailVerifiedAt !== null) throw new AppError("INVALID_STATE", "This customer's e-mail address is already verified.");
  const { insert, link } = await emailVerificationInsert(db, customer.id, deps.clock.now());
  await runAdminChange(db, [insert, auditInsert(db, { actor: operator.email, action: "user.resend_verification", detail: { userId: customer.id, linkId: link.id }, reason, subject: customer.id }, deps.clock.now())]);
  await sendAccountEmail(deps, verificationEmail(customer, verificationLink(deps.config.webClient, link)), "verification");
}

/**
 * A setting, or (the approval threshold itself) a request for a second operator's approval. The change and its audit row
 * are one batch (db/admin-sql.ts setSettingSql).
 */
export async function changeSettingCommand(
  db: Db,
  operator: Operator,
  key: SettingKey,
  input: { value: unknown; reason: string },
  now: number,
): Promise<{ held: ApprovalAnswer } | { changed: AdminSettingChanged }> {
  if (key === "approval_threshold") {
    const approval = await requestThresholdChange(db, operator, input.value, input.reason, now);
    return { held: { message: "Waiting for a second operator's approval (Approvals page).", approval } };
  }
  await changeSetting(db, operator, key, input.value, input.reason, now);
  const value = (await getSettings(db, [key]))[key];
  return { changed: { key, value } };
}

/**
 * A toast to one customer or everyone online. Nothing of ours changes: the audit row (with the recipients) is written
 * first, so a message that went out is never missing from the log.
 */
export async function notifyCustomers(
  deps: Pick<RequestDeps, "env" | "db" | "clock">,
  operator: Operator,
  body: { target: "customer" | "online"; userId?: string; type: "success" | "info" | "error" | "warning"; message: string; reason: string },
): Promise<NotifyAnswer> {
  const { db } = deps;
  let ids: string[];
  let to: string;
  if (body.target === "customer") {
    if (!body.userId) throw new AppError("VALIDATION_FAILED", "Choose the customer to notify.", { field: "userId" });
    const customer = await findCustomer(db, body.userId);
    ids = [customer.id];
    to = `Sent to ${customer.username} (${customer.email}): it shows in the tabs they have open now.`;
  } else {
    ids = await onlineCustomerIds(db, 15, deps.clock.now());
    to = ids.length === 1 ? "Sent to the 1 customer online now." : `Sent to the ${ids.length} customers online now.`;
  }
  await audit(db, {
    actor: operator.email,
    action: "message.notify",
    detail: { target: body.target, userId: body.userId ?? null, type: body.type, message: body.message, recipients: ids.length },
    reason: body.reason,
    subject: body.userId ?? null,
  }, deps.clock.now());
  return { recipients: await sendToast(deps.env, ids, { kind: "toast", type: body.type, message: body.message }), message: to };
}

/** A group e-mail: refused when the group changed since the preview; audited before the first message leaves. */
export async function sendGroupMail(
  deps: RequestDeps,
  operator: Operator,
  body: { audience: Parameters<typeof recipientsFor>[1]; subject: string; body: string; reason: string; expectedCount: number },
): Promise<GroupMailSent> {
  const { db, config } = deps;
  const recipients = (await recipientsFor(db, body.audience, deps.clock.now())).slice(0, MAX_RECIPIENTS_PER_SEND);
  if (recipients.length !== body.expectedCount) {
    throw new AppError("CONFLICT", `The group now has ${recipients.length} recipients, not ${body.expectedCount}: preview it again before sending.`, { count: recipients.length });
  }
  await enforceRateLimit(db, `operator-mail:${operator.id}`, GROUP_MAIL_LIMIT, deps.clock.now());
  await audit(db, { actor: operator.email, action: "message.email", detail: { audience: body.audience, subject: body.subject, recipients: recipients.length }, reason: body.reason }, deps.clock.now());
  const origin = config.publicUrl;
  const sender = deps.upstreams.email();
  const sendAll = async () => {
    let failed = 0;
    for (const to of recipients) {
      try {
        await sender.send(await groupMessage(origin, config.jwtSecret, to, body.subject, body.body));
      } catch {
        failed += 1;
      }
    }
    if (failed > 0) log("warn", "group e-mail: some not delivered", { rid: deps.requestId, failed, total: recipients.length });
  };
  if (sender.sendInBackground) deps.defer(sendAll());
  else await sendAll();
  return { sent: recipients.length };
}

/**
 * "Verify again" with the provider: the same confirmation the webhook and the sweep run (credited once, by its ledger
 * key, in that flow's own guarded batch). The operator's audit row records the status before and after.
 */
export async function verifyDeposit(deps: PaymentDeps, operator: Operator, id: string, reason: string): Promise<DepositVerifyAnswer> {
  const before = await findDeposit(deps.db, id);
  if (!before) throw new AppError("NOT_FOUND", "No deposit with this id.");
  if (before.provider === "squad") await confirmCardPayment(deps, id);
  else if (before.provider === "squad_transfer") await recheckTransfer(deps, id);
  else await settleInvoice(deps, id);
  const after = await findDeposit(deps.db, id);
  const status = after?.status ?? before.status;
  await audit(deps.db, { actor: operator.email, action: "deposit.verify", detail: { paymentId: id, status }, reason, subject: id, previous: JSON.stringify(before.status) }, deps.clock.now());
  return { id, before: before.status, status };
}

/** Settles a stuck SMS order through the sweep's own guarded transition (refund once by its ledger key). */
export async function settleOrder(deps: SmsDeps, operator: Operator, id: string, reason: string): Promise<SettleAnswer> {
  const result = await settleSmsOrderNow(deps, id);
  await audit(deps.db, { actor: operator.email, action: "order.settle", detail: { orderId: id, ...result }, reason, subject: id, previous: JSON.stringify(result.from) }, deps.clock.now());
  return result;
}

/**
 * Refunds an order whose code came (issue 46: the code was wrong, the service refused the number): the price back and a
 * reseller's margin on it reversed, in one batch (sms-transitions.ts refundKept), then audited with the developer's
 * share it could not take back, if any (refShareKept).
 */
export async function refundKeptOrderCommand(deps: SmsDeps, operator: Operator, id: string, reason: string, walletOpen: (userId: string) => Promise<boolean>): Promise<RefundKeptAnswer> {
  const result = await refundKeptSmsOrder(deps, id, reason, walletOpen);
  await audit(deps.db, { actor: operator.email, action: "order.refund_kept", detail: { orderId: id, ...result }, reason, subject: id, previous: JSON.stringify(result.from) }, deps.clock.now());
  return result;
}

/** Settles a stuck rental through its own guarded transition. */
export async function settleRental(deps: RentalDeps, operator: Operator, id: string, reason: string): Promise<SettleAnswer> {
  const result = await settleRentalNow(deps, id);
  await audit(deps.db, { actor: operator.email, action: "rental.settle", detail: { rentalId: id, ...result }, reason, subject: id, previous: JSON.stringify(result.from) }, deps.clock.now());
  return result;
}

