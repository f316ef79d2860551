import { z } from "zod";
import { createUpstreamClient, replyMessage, type UpstreamClientOptions } from "../upstream-http";

/**
 * Squad (GTCO) card/bank checkout: initiate a hosted checkout and verify a transaction by our own reference.
 * Documented protocol (https://docs.squadco.com/Payments/Initiate-payment, https://docs.squadco.com/Payments/verify-transaction):
 * Bearer secret key; amounts in kobo; replies { status, success, message, data }.
 */
export const SQUAD_LIVE_BASE_URL = "https://api-d.squadco.com";

export type SquadTransactionStatus = "success" | "failed" | "abandoned" | "pending";

export interface SquadInitiateInput {
  amountKobo: number;
  email: string;
  transactionRef: string;
  callbackUrl: string;
  customerName?: string;
}

export interface SquadVerification {
  transactionRef: string;
  status: SquadTransactionStatus;
  amountKobo: number;
  currency: string;
}

export interface SquadClient {
  initiate(input: SquadInitiateInput): Promise<{ checkoutUrl: string; transactionRef: string }>;
  /** null when Squad does not know the reference (400 "Invalid transaction reference", or a 404). */
  verify(transactionRef: string): Promise<SquadVerification | null>;
}

const envelope = z.object({
  status: z.union([z.number(), z.string()]).optional(),
  success: z.boolean().optional(),
  message: z.string().optional(),
  data: z.unknown().optional(),
});

const initiateData = z.object({ checkout_url: z.string().url(), transaction_ref: z.string().optional() });

const verifyData = z.object({
  transaction_ref: z.string().optional(),
  transaction_status: z.string(),
  transaction_amount: z.union([z.number(), z.string()]),
  transaction_currency_id: z.string().optional(),
  currency: z.string().optional(),
});

export function createSquadClient(opts: Omit<UpstreamClientOptions, "provider" | "headers"> & { secretKey: string }): SquadClient {
  const http = createUpstreamClient({ ...opts, provider: "Squad", headers: { authorization: `Bearer ${opts.secretKey}` } });

  return {
    async initiate(input) {
      const { status, json } = await http.requestJson("/transaction/initiate", {
        method: "POST",
        json: {
          amount: input.amountKobo,
          email: input.email,
          currency: "NGN",
          initiate_type: "inline",
          transaction_ref: input.transactionRef,
          callback_url: input.callbackUrl,
          ...(input.customerName ? { customer_name: input.customerName } : {}),
        },
      });
      const body = envelope.safeParse(json);
      const data = body.success ? initiateData.safeParse(body.data.data) : null;
      if (status !== 200 || !body.success || body.data.success === false || !data?.success) {
        throw http.unusable("/transaction/initiate", status, replyMessage(json));
      }
      return { checkoutUrl: data.data.checkout_url, transactionRef: data.data.transaction_ref ?? input.transactionRef };
    },

    async verify(transactionRef) {
      const { status, json } = await http.requestJson(`/transaction/verify/${encodeURIComponent(transactionRef)}`);
      // "A status code of 400 is returned for an invalid transaction ref" with {"status":400,"success":false,
      // "message":"Invalid transaction reference","data":{}} (https://docs.squadco.com/Payments/verify-transaction):
      // Squad does not know the reference, which is an answer, not a failure. Any other 400 stays a refusal.
      if (status === 404 || (status === 400 && isUnknownReference(json))) return null;
      const body = envelope.safeParse(json);
      const data = body.success ? verifyData.safeParse(body.data.data) : null;
      if (status !== 200 || !body.success || body.data.success === false || !data?.success) {
        throw http.unusable("/transaction/verify", status, replyMessage(json));
      }
      const amount = Number(data.data.transaction_amount);
      if (!Number.isSafeInteger(amount)) throw http.fault("bad_reply", status, "verify: amount is not whole kobo");
      return {
        transactionRef: data.data.transaction_ref ?? transactionRef,
        status: normaliseStatus(data.data.transaction_status),
        amountKobo: amount,
        currency: (data.data.transaction_currency_id ?? data.data.currency ?? "").toUpperCase(),
      };
    },
  };
}

function normaliseStatus(raw: string): SquadTransactionStatus {
  const s = raw.trim().toLowerCase();
  if (s === "success" || s === "successful") return "success";
  if (s === "failed") return "failed";
  if (s === "abandoned") return "abandoned";
  // Anything unknown is treated as not yet paid: never credit on a status we do not understand.
  return "pending";
}

function isUnknownReference(json: unknown): boolean {
  const body = envelope.safeParse(json);
  return body.success && /invalid transaction reference/i.test(body.data.message ?? "");
}
