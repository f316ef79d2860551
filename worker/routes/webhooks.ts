import { Hono } from "hono";
import { z } from "zod";
import type { AppEnv } from "../app-env";
import { AppError } from "../lib/errors";
import { log } from "../lib/log";
import { nowPaymentStatusSchema } from "../providers/payments/nowpayments";
import { verifyNowPaymentsSignature, verifySquadSignature } from "../providers/payments/signatures";
import { transferNoticeKind, verifyTransferNotice } from "../providers/payments/squad-transfer-webhooks";
import { acceptTransferNotice, applyNowPaymentsIpn, confirmCardPayment } from "../services/funding";
import { acceptPushedCode } from "../services/sms";
import { paymentDepsOf, smsDepsOf } from "./flow-deps";

/**
 * Provider webhooks, verified on the raw body before anything is parsed. A forged, tampered or unsigned request is 401
 * and changes nothing; an authentic one for a payment we do not know is acknowledged (so the provider stops retrying)
 * and changes nothing either. Crediting is idempotent (ledger key), so replays are harmless.
 */

const squadWebhookSchema = z.object({
  Event: z.string(),
  TransactionRef: z.string().optional(),
  Body: z.object({ transaction_ref: z.string().optional() }).passthrough().optional(),
});

/**
 * DaisySMS's incoming-SMS webhook (set in the DaisySMS profile; SMS-Activate sends the same fields):
 * {"activationId": 123, "messageId": 999, "service": "wa", "text": "...", "code": "12345", "country": 187, "receivedAt": "..."}.
 * Only activationId is used; the code is read back from the upstream (acceptPushedCode).
 */
const smsPushSchema = z.object({ activationId: z.union([z.string().trim().min(1).max(40), z.number().int().nonnegative()]).transform(String) }).passthrough();

const nowIpnSchema = z.object({
  payment_id: z.union([z.number(), z.string()]).transform(String),
  payment_status: z.string(),
  order_id: z.union([z.string(), z.number()]).nullish(),
  // Repeat deposits name the invoice they were sent to (https://documenter.getpostman.com/view/7907941/2s93JusNJt).
  parent_payment_id: z.union([z.number(), z.string()]).nullish(),
});

function safeJson(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return null;
  }
}

function parseJson(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    throw new AppError("BAD_JSON", "The request body is not valid JSON.");
  }
}

export const webhookRoutes = new Hono<AppEnv>()
  .post("/squad", async (c) => {
    const raw = await c.req.text();
    // Squad posts every notification to the dashboard's one webhook URL: a virtual-account transfer (issue 31) has its
    // own shape and signature (providers/payments/squad-transfer-webhooks.ts) and its own service.
    if (transferNoticeKind(safeJson(raw)) !== null) {
      const notice = await verifyTransferNotice(c.env.SQUAD_SECRET_KEY ?? "", raw, {
        encryptedBody: c.req.header("x-squad-encrypted-body"),
        signature: c.req.header("x-squad-signature"),
      });
      if (!notice) {
        log("warn", "squad transfer notification refused: bad or missing signature", { rid: c.var.requestId });
        throw new AppError("INVALID_SIGNATURE", "Invalid signature.");
      }
      // Squad's documented acknowledgement. An upstream fault on the re-query throws (5xx): Squad keeps the notice in
      // its webhook error log and the sweep settles the recorded arrival.
      const status = await acceptTransferNotice(paymentDepsOf(c), notice);
      return c.json({ response_code: 200, transaction_reference: notice.notice.transaction_reference, response_description: "Success", status });
    }
    if (!(await verifySquadSignature(c.env.SQUAD_SECRET_KEY ?? "", raw, c.req.header("x-squad-encrypted-body")))) {
      log("warn", "squad webhook refused: bad or missing signature", { rid: c.var.requestId });
      throw new AppError("INVALID_SIGNATURE", "Invalid signature.");
    }
    const parsed = squadWebhookSchema.safeParse(parseJson(raw));
    if (!parsed.success) throw new AppError("VALIDATION_FAILED", "Unrecognised webhook payload.");
    const ref = parsed.data.Body?.transaction_ref ?? parsed.data.TransactionRef;
    if (parsed.data.Event !== "charge_successful" || !ref) return c.json({ received: true, ignored: true });
    // The body only tells us which payment to look at: the credit depends on Squad's verify call, made here.
    const outcome = await confirmCardPayment(paymentDepsOf(c), ref);
    if (!outcome) log("warn", "squad webhook for an unknown reference", { ref });
    return c.json({ received: true, status: outcome ?? "unknown" });
  })

  .post("/sms/swift", async (c) => {
    const parsed = smsPushSchema.safeParse(parseJson(await c.req.text()));
    if (!parsed.success) throw new AppError("VALIDATION_FAILED", "Unrecognised webhook payload.");
    // Answered 200 whatever the outcome, so the upstream stops retrying; nothing in the body is believed.
    const outcome = await acceptPushedCode(smsDepsOf(c), "Swift", parsed.data.activationId);
    if (outcome === "unknown") log("warn", "sms push for an activation we do not hold", { activationId: parsed.data.activationId.slice(0, 40) });
    return c.json({ received: true, status: outcome });
  })

  .post("/nowpayments", async (c) => {
    const raw = await c.req.text();
    if (!(await verifyNowPaymentsSignature(c.env.NOWPAYMENTS_IPN_SECRET ?? "", raw, c.req.header("x-nowpayments-sig")))) {
      log("warn", "nowpayments ipn refused: bad or missing signature", { rid: c.var.requestId });
      throw new AppError("INVALID_SIGNATURE", "Invalid signature.");
    }
    const parsed = nowIpnSchema.safeParse(parseJson(raw));
    if (!parsed.success) throw new AppError("VALIDATION_FAILED", "Unrecognised IPN payload.");
    const status = nowPaymentStatusSchema.safeParse(parsed.data.payment_status);
    if (!status.success) return c.json({ received: true, ignored: true });
    const outcome = await applyNowPaymentsIpn(paymentDepsOf(c), {
      paymentId: parsed.data.payment_id,
      status: status.data,
      orderId: parsed.data.order_id == null ? null : String(parsed.data.order_id),
      parentPaymentId: parsed.data.parent_payment_id == null || parsed.data.parent_payment_id === "" ? null : String(parsed.data.parent_payment_id),
    });
    if (outcome === "unknown") log("warn", "nowpayments ipn for an unknown payment", { paymentId: parsed.data.payment_id });
    return c.json({ received: true, status: outcome });
  });
