import { z } from "zod";
import { createUpstreamClient, replyMessage, type UpstreamClientOptions } from "../upstream-http";

/**
 * NOWPayments crypto invoices: merchant coins, the full currency list, create a payment, read a payment.
 * Documented protocol: x-api-key header; errors { status: false, statusCode, code, message }.
 */
export const NOWPAYMENTS_LIVE_BASE_URL = "https://api.nowpayments.io/v1";

export const NOW_PAYMENT_STATUSES = [
  "waiting",
  "confirming",
  "confirmed",
  "sending",
  "partially_paid",
  "finished",
  "failed",
  "refunded",
  "expired",
] as const;
export type NowPaymentStatus = (typeof NOW_PAYMENT_STATUSES)[number];
export const nowPaymentStatusSchema = z.enum(NOW_PAYMENT_STATUSES);

export interface NowCurrency {
  code: string;
  name: string;
  enabled: boolean;
  network: string | null;
}

export interface NowCreatePaymentInput {
  priceAmountUsd: number;
  payCurrency: string;
  orderId: string;
  orderDescription: string;
  ipnCallbackUrl: string;
}

export interface NowPayment {
  paymentId: string;
  paymentStatus: NowPaymentStatus;
  payAddress: string | null;
  payAmount: string | null;
  payCurrency: string | null;
  network: string | null;
  actuallyPaid: number | null;
  orderId: string | null;
}

export interface NowPaymentsClient {
  merchantCoins(): Promise<string[]>;
  fullCurrencies(): Promise<NowCurrency[]>;
  createPayment(input: NowCreatePaymentInput): Promise<NowPayment>;
  /** null when NOWPayments does not know the payment. */
  getPayment(paymentId: string): Promise<NowPayment | null>;
}

const idSchema = z.union([z.number(), z.string()]).transform(String);
const numberish = z.union([z.number(), z.string()]).nullish();

const paymentSchema = z.object({
  payment_id: idSchema,
  payment_status: nowPaymentStatusSchema,
  pay_address: z.string().nullish(),
  pay_amount: numberish,
  pay_currency: z.string().nullish(),
  network: z.string().nullish(),
  actually_paid: numberish,
  order_id: z.union([z.string(), z.number()]).nullish(),
});

const currencySchema = z.object({
  code: z.string(),
  name: z.string().nullish(),
  enable: z.boolean().nullish(),
  network: z.string().nullish(),
});

export function createNowPaymentsClient(opts: Omit<UpstreamClientOptions, "provider" | "headers"> & { apiKey: string }): NowPaymentsClient {
  const http = createUpstreamClient({ ...opts, provider: "NOWPayments", headers: { "x-api-key": opts.apiKey } });

  async function call(path: string, init: { method?: string; body?: unknown } = {}) {
    return http.requestJson(path, { method: init.method, json: init.body });
  }

  function refused(path: string, status: number, json: unknown): never {
    throw http.fault("rejected", status, `${path}: ${replyMessage(json)}`);
  }

  function toPayment(raw: z.infer<typeof paymentSchema>): NowPayment {
    return {
      paymentId: raw.payment_id,
      paymentStatus: raw.payment_status,
      payAddress: raw.pay_address ?? null,
      payAmount: raw.pay_amount == null ? null : String(raw.pay_amount),
      payCurrency: raw.pay_currency ?? null,
      network: raw.network ?? null,
      actuallyPaid: raw.actually_paid == null ? null : Number(raw.actually_paid),
      orderId: raw.order_id == null ? null : String(raw.order_id),
    };
  }

  return {
    async merchantCoins() {
      const { status, json } = await call("/merchant/coins");
      const parsed = z.object({ selectedCurrencies: z.array(z.string()) }).safeParse(json);
      if (status !== 200 || !parsed.success) refused("/merchant/coins", status, json);
      return parsed.data.selectedCurrencies;
    },

    async fullCurrencies() {
      const { status, json } = await call("/full-currencies");
      const parsed = z.object({ currencies: z.array(currencySchema) }).safeParse(json);
      if (status !== 200 || !parsed.success) refused("/full-currencies", status, json);
      return parsed.data.currencies.map((c) => ({ code: c.code, name: c.name ?? c.code, enabled: c.enable !== false, network: c.network ?? null }));
    },

    async createPayment(input) {
      const { status, json } = await call("/payment", {
        method: "POST",
        body: {
          price_amount: input.priceAmountUsd,
          price_currency: "usd",
          pay_currency: input.payCurrency.toLowerCase(),
          ipn_callback_url: input.ipnCallbackUrl,
          order_id: input.orderId,
          order_description: input.orderDescription,
        },
      });
      const parsed = paymentSchema.safeParse(json);
      if ((status !== 200 && status !== 201) || !parsed.success || !parsed.data.pay_address || parsed.data.pay_amount == null) {
        refused("/payment", status, json);
      }
      return toPayment(parsed.data);
    },

    async getPayment(paymentId) {
      const { status, json } = await call(`/payment/${encodeURIComponent(paymentId)}`);
      if (status === 404) return null;
      const parsed = paymentSchema.safeParse(json);
      if (status !== 200 || !parsed.success) refused("/payment/:id", status, json);
      return toPayment(parsed.data);
    },
  };
}
