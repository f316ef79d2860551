
import { z } from "zod";
import type { SandboxPaymentStatus } from "../../schema/answers";
import { answer, jsonBody, route } from "./kit";

/**
 * The sandbox NOWPayments' tools (worker/sandbox/nowpayments.ts), mounted at /sandbox/nowpayments and served only while
 * the server runs sandbox providers: a script, a test or the web's Simulate payment button moves a payment as
 * NOWPayments would, which sends the signed IPN to our own webhook.
 */

// The documented payment statuses ("Get payment status": waiting, confirming, confirmed, sending, partially_paid,
// finished, failed, refunded, expired), kept here rather than taken from the adapter: the simulator follows the
// documents, so an adapter that drifts from them fails against it.
export const nowPaymentStatusSchema = z.enum(["waiting", "confirming", "confirmed", "sending", "partially_paid", "finished", "failed", "refunded", "expired"]);

const currency = z.string().regex(/^[A-Za-z0-9]{2,20}$/);

/** The coin's price moved: Create payment now refuses this currency below min_usd (null: back to the listed minimum). */
export const createMinimum = route({
  method: "post",
  path: "/create-minimum/{currency}",
  request: { params: z.object({ currency }), body: jsonBody(z.object({ min_usd: z.number().positive().nullable() })) },
  responses: { 200: answer<{ currency: string; create_min_usd: number | null }>() },
});

export const setPaymentStatus = route({
  method: "post",
  path: "/{paymentId}/status",
  request: {
    params: z.object({ paymentId: z.string().min(1).max(40) }),
    body: jsonBody(
      z.object({
        payment_status: nowPaymentStatusSchema,
        /** What arrived, in pay_currency (default: the whole pay_amount on 'finished'). */
        actually_paid: z.number().min(0).optional(),
        /** The customer paid in another currency than the invoice's. */
        pay_currency: currency.optional(),
        /** A second deposit to the same address: a new payment with parent_payment_id = this one, and its own IPN. */
        repeat: z.boolean().optional(),
        /** Which of NOWPayments' two documented canonical forms signs the IPN (they differ only for bodies with arrays). */
        signature_form: z.enum(["arrays", "objects"]).optional(),
        /** Adds an array to the IPN body, as some IPNs carry (payment_extra_ids), to exercise both signature forms. */
        extra_ids: z.array(z.number()).optional(),
      }),
    ),
  },
  responses: { 200: answer<SandboxPaymentStatus>() },
});
