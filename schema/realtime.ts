import { z } from "zod";

/**
 * Every realtime message, defined once. The server publishes them (worker/services/notify.ts); the web client parses
 * them, shows the spec's toast where one is due, and invalidates exactly the queries each one affects.
 * A lost message costs only latency: every screen can read the truth from the API.
 */
const toastTypeSchema = z.enum(["success", "info", "error", "warning"]);

export const realtimeMessageSchema = z.discriminatedUnion("kind", [
  /** The spec's generic live notification. */
  z.object({ kind: z.literal("toast"), type: toastTypeSchema, message: z.string() }),
  // Amounts are naira like every API answer. paymentId is the caller-visible id: the Squad transaction_ref or the
  // NOWPayments payment_id (the web key ["invoice", paymentId] uses it).
  z.object({
    kind: z.literal("payment.credited"),
    paymentId: z.string(),
    amount: z.number(),
    balance: z.number(),
    /** Issue 28: the toast's sentence when the credit is not simply the invoice (an underpayment's shortfall, support's credit). */
    message: z.string().optional(),
  }),
  z.object({ kind: z.literal("payment.failed"), paymentId: z.string(), status: z.string(), message: z.string() }),
  // orderId is the request_id the API answered at purchase: the web key is ["sms-order", orderId].
  z.object({ kind: z.literal("sms.code"), orderId: z.string(), code: z.string(), number: z.string() }),
  z.object({
    kind: z.literal("sms.ended"),
    orderId: z.string(),
    status: z.enum(["timeout", "error", "cancelled", "failed"]),
    refunded: z.boolean(),
    message: z.string(),
    /** "Code or next route": the order the chain moved on to (the dialog follows it). */
    nextOrderId: z.string().optional(),
  }),
  z.object({ kind: z.literal("rental.sms"), rentalId: z.string(), sender: z.string(), text: z.string(), code: z.string().nullable() }),
  z.object({ kind: z.literal("rental.ended"), rentalId: z.string(), status: z.enum(["ended", "cancelled", "failed"]), refunded: z.boolean() }),
  /**
   * Auto-renew (issue 32): a rental renews soon (24 hours and 1 hour before). price is naira; funded says whether the
   * wallet holds it now; the customer's toast is sent beside it.
   */
  z.object({
    kind: z.literal("rental.renewing"),
    rentalId: z.string(),
    renewsAt: z.string(),
    price: z.number(),
    funded: z.boolean(),
  }),
  /**
   * A rental that does not renew itself ends in about an hour (issue 17's reminder; issue 47 sends it through the outbox
   * so Web Push and rental forwarding carry it too). endsAt: ISO 8601. The customer's toast is sent beside it.
   */
  z.object({ kind: z.literal("rental.ending"), rentalId: z.string(), endsAt: z.string() }),
  z.object({ kind: z.literal("balance.changed"), balance: z.number() }),
  /**
   * Cash out (issue 45): a withdrawal changed state (requested, awaiting approval, paid, failed, reversed, refused).
   * amount naira; message the customer's sentence ("Paid into GTBank ····1234", "Failed — ₦X is back in your wallet").
   */
  z.object({
    kind: z.literal("withdrawal.changed"),
    withdrawalId: z.string(),
    state: z.enum(["approval", "held", "sending", "paid", "failed", "reversed", "refused"]),
    amount: z.number(),
    message: z.string(),
  }),
  /**
   * Resellers (issue 46): one of the reseller's sub-accounts was opened, frozen, unfrozen or closed, or money moved
   * between it and the reseller's wallet (`transfer`: the transfer's id, direction, reason and naira amount). Told to
   * the reseller's room and webhooks, written in the same batch as the change (resellers/subaccount.ts).
   */
  z.object({
    kind: z.literal("subaccount.changed"),
    subaccountId: z.string(),
    externalId: z.string(),
    change: z.enum(["created", "frozen", "unfrozen", "closed", "transfer"]),
    transfer: z.object({ id: z.string(), direction: z.enum(["in", "out"]), reason: z.enum(["transfer", "close"]), amount: z.number() }).optional(),
  }),
  /** To operators only: something the console shows changed (topic: ledger, deposits, orders...); it refetches. */
  z.object({ kind: z.literal("admin.changed"), topic: z.string() }),
]);
export type RealtimeMessage = z.infer<typeof realtimeMessageSchema>;
