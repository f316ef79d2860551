import { z } from "zod";
import { NOW_PAYMENT_STATUSES } from "../../../schema/constants";
import { createUpstreamClient, UpstreamFault, type UpstreamClientOptions } from "../upstream-http";

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

// Reply shapes, each as NOWPayments' API documentation shows it (https://documenter.getpostman.com/view/7907941/2s93JusNJt,
// the section named beside each; golden samples in ./fixtures, SOURCES.md). Ids and amounts come as numbers in some
// samples and strings in others ("Create payment" has payment_id "5745459419", "Get payment status" 5524759814).
const idSchema = z.union([z.number(), z.string()]).transform(String);
const numberish = z.union([z.number(), z.string()]).nullish();
const amount = z.union([z.number(), z.string()]).transform(Number).pipe(z.number().nonnegative());

/** "Get payment status" (and the IPN body, which is the same object): the fields we read. */
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

/** "Create payment" (201): the same object, and a payment the customer cannot pay (no address or amount) is unusable. */
const createdPaymentSchema = paymentSchema.extend({ pay_address: z.string().min(1), pay_amount: z.union([z.number(), z.string()]) });

/** "Get API status" -> {"message":"OK"}. */
const statusSchema = z.object({ message: z.string() });

// GET /merchant/coins is documented as {"selectedCurrencies": [...]}, yet accounts have been seen answering
// {"currencies": [...]} (issue 13's audit): both are accepted, as codes or as objects carrying a code.
const coinEntry = z.union([z.string(), z.object({ code: z.string() }).transform((c) => c.code)]);
const merchantCoinsSchema = z.union([
  z.object({ selectedCurrencies: z.array(coinEntry) }).transform((b) => b.selectedCurrencies),
  z.object({ currencies: z.array(coinEntry) }).transform((b) => b.currencies),
]);

// "Get the minimum payment amount": GET /min-amount?currency_from=eth&currency_to=trx&fiat_equivalent=usd answers
// {"currency_from":"eth","currency_to":"trx","min_amount":0.0078999,"fiat_equivalent":35.40626584}.
const minAmountSchema = z.object({
  currency_from: z.string().optional(),
  min_amount: amount,
  fiat_equivalent: amount.nullish(),
});

// "Get available currencies (full)": {"currencies":[{"id":1,"code":"AAVE","name":"Aave","enable":true,
// "wallet_regex":"...","priority":1,"extra_id_exists":false,"extra_id_regex":null,"logo_url":"...","track":true,
// "cg_id":"aave","is_maxlimit":false,"network":"eth","smart_contract":null,"network_precision":null}, ...]}.
const fullCurrenciesSchema = z.object({
  currencies: z.array(z.object({ code: z.string(), name: z.string().nullish(), enable: z.boolean().nullish(), network: z.string().nullish() })),
});

/**
 * The documented error object, e.g. {"status":false,"statusCode":403,"code":"INVALID_API_KEY","message":"Invalid api
 * key"} or 400 INVALID_REQUEST_PARAMS / AMOUNT_MINIMAL_ERROR. Its code and message are what the logs get.
 */
const errorSchema = z.object({ status: z.literal(false).optional(), statusCode: z.number().optional(), code: z.string().optional(), message: z.string() });

function errorWords(json: unknown): string {
  const error = errorSchema.safeParse(json);
  if (!error.success) return "unexpected reply";
  return `${error.data.code ? `${error.data.code}: ` : ""}${error.data.message}`.slice(0, 200);
}

/**
 * "Create payment" refused because the price is below NOWPayments' minimum for the pay currency: 400
 * {"status":false,"statusCode":400,"code":"AMOUNT_MINIMAL_ERROR","message":"Crypto amount 0.00001 is less than minimal"}
 * (the documented error object, https://documenter.getpostman.com/view/7907941/2s93JusNJt; golden sample
 * ./fixtures/nowpayments-error-amount-minimal.json). Their documented flow checks "Get the minimum payment amount"
 * before "Create payment", yet the minimum is set in crypto and the coin's price moves between the two calls, and the
 * check may be unavailable: so the create can still refuse. It is the customer's amount, not an outage: still an
 * UpstreamFault (rejected, never transient) for any caller that does not know it, but named so the invoice service
 * can answer the customer's 400 instead of a 502.
 */
export class NowAmountBelowMinimum extends UpstreamFault {
  override name = "NowAmountBelowMinimum";
  constructor(httpStatus: number, detail: string) {
    super("NOWPayments", "rejected", httpStatus, detail);
  }
}

export const NOW_AMOUNT_MINIMAL_ERROR = "AMOUNT_MINIMAL_ERROR";

function errorCode(json: unknown): string | null {
  const error = errorSchema.safeParse(json);
  return error.success ? (error.data.code ?? null) : null;
}

export function createNowPaymentsClient(opts: Omit<UpstreamClientOptions, "provider" | "headers"> & { apiKey: string }): NowPaymentsClient {
  // The shared upstream client (deadline, User-Agent, JSON parsing, one fault type); x-api-key on every call.
  const http = createUpstreamClient({ ...opts, provider: "NOWPayments", headers: { "x-api-key": opts.apiKey } });

  /**
   * One documented call: the reply parsed with its shape when the status is the documented success, else the shared
   * mapping of an unusable reply (http.unusable: 5xx/429 transient, a 2xx of the wrong shape a bad reply, the rest
   * NOWPayments' refusal with its error code).
   */
  async function read<S extends z.ZodType>(
    path: string,
    schema: S,
    init: { method?: string; json?: unknown; query?: Record<string, string>; ok?: number[] } = {},
  ): Promise<{ status: number; data: z.infer<S> }> {
    const { status, json } = await http.requestJson(path, { method: init.method, json: init.json, query: init.query });
    if (!(init.ok ?? [200]).includes(status)) {
      const fault = http.unusable(path, status, errorWords(json));
      // Only a refusal (4xx other than 429) can be the customer's amount; a 5xx stays an outage whatever it says.
      if (fault.reason === "rejected" && errorCode(json) === NOW_AMOUNT_MINIMAL_ERROR) throw new NowAmountBelowMinimum(status, fault.detail);
      throw fault;
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) throw http.unusable(path, status, "the reply is not of the documented shape");
    return { status, data: parsed.data };
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
      // No key needed; anything but 200 {"message":"OK"} says the API is not up (the message is reported as it came).
      const { status, json } = await http.requestJson("/status");
      const parsed = statusSchema.safeParse(json);
      const message = parsed.success ? parsed.data.message : "unexpected reply";
      return { ok: status === 200 && message.toUpperCase() === "OK", message };
    },

    async merchantCoins() {
      return (await read("/merchant/coins", merchantCoinsSchema)).data;
    },

    async minAmount(payCurrency) {
      const currency = payCurrency.toLowerCase();
      const { data } = await read("/min-amount", minAmountSchema, { query: { currency_from: currency, fiat_equivalent: "usd" } });
      return { currency: currency.toUpperCase(), minAmount: data.min_amount, fiatEquivalentUsd: data.fiat_equivalent ?? null };
    },

    async fullCurrencies() {
      const { data } = await read("/full-currencies", fullCurrenciesSchema);
      return data.currencies.map((c) => ({ code: c.code, name: c.name ?? c.code, enabled: c.enable !== false, network: c.network ?? null }));
    },

    async createPayment(input) {
      // "Create payment" answers 201 (some accounts 200).
      const { data } = await read("/payment", createdPaymentSchema, {
        method: "POST",
        ok: [200, 201],
        json: {
          price_amount: input.priceAmountUsd,
          price_currency: "usd",
          pay_currency: input.payCurrency.toLowerCase(),
          ipn_callback_url: input.ipnCallbackUrl,
          order_id: input.orderId,
          order_description: input.orderDescription,
        },
      });
      return toPayment(data);
    },

    async getPayment(paymentId) {
      const path = `/payment/${encodeURIComponent(paymentId)}`;
      const { status, json } = await http.requestJson(path);
      // A payment NOWPayments does not know is an answer (null), never a credit: the documents give no sample for it,
      // so a 404 of any body is read that way (the fail-safe reading: nothing is credited on it).
      if (status === 404) return null;
      if (status !== 200) throw http.unusable("/payment/:id", status, errorWords(json));
      return toPayment(http.parse(paymentSchema, json, "/payment/:id", status));
    },
  };
}
