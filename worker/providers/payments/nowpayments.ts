import { z } from "zod";
import { NOW_PAYMENT_STATUSES } from "../../../schema/constants";
import { createUpstreamClient, replyMessage, type UpstreamClientOptions } from "../upstream-http";

/**
 * NOWPayments crypto invoices: API status, merchant coins, the full currency list, the minimum per currency, create a
 * payment, read a payment. Documented protocol (https://documenter.getpostman.com/view/7907941/2s93JusNJt): x-api-key
 * header; errors { status: false, statusCode, code, message }.
 */
export const NOWPAYMENTS_LIVE_BASE_URL = "https://api.nowpayments.io/v1";

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
  /** Set on a repeat deposit to an invoice's address: the invoice's own payment_id. */
  parentPaymentId: string | null;
  paymentStatus: NowPaymentStatus;
  payAddress: string | null;
  payAmount: string | null;
  payCurrency: string | null;
  network: string | null;
  actuallyPaid: number | null;
  orderId: string | null;
  priceAmount: number | null;
  priceCurrency: string | null;
}

/** GET /min-amount: the smallest payment NOWPayments accepts in a currency, and its value in USD. */
export interface NowMinAmount {
  currency: string;
  minAmount: number;
  fiatEquivalentUsd: number | null;
}

export interface NowPaymentsClient {
  /** GET /status (no key needed): {"message":"OK"} when the API is up. */
  status(): Promise<{ ok: boolean; message: string }>;
  merchantCoins(): Promise<string[]>;
  minAmount(payCurrency: string): Promise<NowMinAmount>;
  fullCurrencies(): Promise<NowCurrency[]>;
  createPayment(input: NowCreatePaymentInput): Promise<NowPayment>;
  /** null when NOWPayments does not know the payment. */
  getPayment(paymentId: string): Promise<NowPayment | null>;
}

const idSchema = z.union([z.number(), z.string()]).transform(String);
const numberish = z.union([z.number(), z.string()]).nullish();

const paymentSchema = z.object({
  payment_id: idSchema,
  parent_payment_id: idSchema.nullish(),
  payment_status: nowPaymentStatusSchema,
  pay_address: z.string().nullish(),
  pay_amount: numberish,
  pay_currency: z.string().nullish(),
  network: z.string().nullish(),
  actually_paid: numberish,
  order_id: z.union([z.string(), z.number()]).nullish(),
  price_amount: numberish,
  price_currency: z.string().nullish(),
});

// GET /merchant/coins is documented as {"selectedCurrencies": [...]}, yet accounts have been seen answering
// {"currencies": [...]} (issue 13's audit): both are accepted, as codes or as objects carrying a code.
const coinEntry = z.union([z.string(), z.object({ code: z.string() }).transform((c) => c.code)]);
const merchantCoinsSchema = z.union([
  z.object({ selectedCurrencies: z.array(coinEntry) }).transform((b) => b.selectedCurrencies),
  z.object({ currencies: z.array(coinEntry) }).transform((b) => b.currencies),
]);

// GET /min-amount?currency_from=eth&fiat_equivalent=usd answers
// {"currency_from":"eth","currency_to":"trx","min_amount":0.0078999,"fiat_equivalent":35.40626584}.
const minAmountSchema = z.object({
  currency_from: z.string().optional(),
  min_amount: z.union([z.number(), z.string()]).transform(Number).pipe(z.number().nonnegative()),
  fiat_equivalent: z.union([z.number(), z.string()]).transform(Number).pipe(z.number().nonnegative()).nullish(),
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
      parentPaymentId: raw.parent_payment_id == null || raw.parent_payment_id === "" ? null : raw.parent_payment_id,
      paymentStatus: raw.payment_status,
      payAddress: raw.pay_address ?? null,
      payAmount: raw.pay_amount == null ? null : String(raw.pay_amount),
      payCurrency: raw.pay_currency ?? null,
      network: raw.network ?? null,
      actuallyPaid: raw.actually_paid == null ? null : Number(raw.actually_paid),
      orderId: raw.order_id == null ? null : String(raw.order_id),
      priceAmount: raw.price_amount == null ? null : Number(raw.price_amount),
      priceCurrency: raw.price_currency ?? null,
    };
  }

  return {
    async status() {
      const { status, json } = await call("/status");
      const parsed = z.object({ message: z.string() }).safeParse(json);
      const message = parsed.success ? parsed.data.message : "unexpected reply";
      return { ok: status === 200 && message.toUpperCase() === "OK", message };
    },

    async merchantCoins() {
      const { status, json } = await call("/merchant/coins");
      if (status !== 200) refused("/merchant/coins", status, json);
      return http.parse(merchantCoinsSchema, json, "/merchant/coins", status);
    },

    async minAmount(payCurrency) {
      const currency = payCurrency.toLowerCase();
      const { status, json } = await http.requestJson("/min-amount", { query: { currency_from: currency, fiat_equivalent: "usd" } });
      if (status !== 200) refused("/min-amount", status, json);
      const parsed = http.parse(minAmountSchema, json, "/min-amount", status);
      return { currency: currency.toUpperCase(), minAmount: parsed.min_amount, fiatEquivalentUsd: parsed.fiat_equivalent ?? null };
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
