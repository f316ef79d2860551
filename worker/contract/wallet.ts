
import type { Balance, DataOf, MerchantCurrencies } from "../../schema/answers";
import type { StaticAccountView, TransferView } from "../../schema/transfers";
import { staticAccountSchema, startTransferSchema } from "../../schema/transfers";
import {
  createInvoiceSchema,
  initializeTransactionSchema,
  nowStatusQuerySchema,
  transactionRefSchema,
  type CheckoutStart,
  type InvoiceAnswer,
  type InvoiceStatusAnswer,
  type PaymentVerdict,
  type PendingCardPayment,
  type SquadCallbackAnswer,
  type Transaction,
} from "../../schema/wallet";
import { z } from "zod";
import { answer, jsonBody, route } from "./kit";

/**
 * The wallet: balance, history, card funding (Squad), crypto funding (NOWPayments) and bank transfers (decision 036),
 * mounted at /api (routes/wallet.ts, transfers.ts).
 */

export const balance = route({ method: "get", path: "/user-balance", responses: { 200: answer<Balance>() } });

export const transactions = route({ method: "get", path: "/get-transaction", responses: { 200: answer<Transaction[]>() } });

/** The spec's original client reads `response.data.data.data.checkout_url` (axios: response.data is the body). */
export const startCardPayment = route({
  method: "post",
  path: "/initialize-transaction",
  request: { body: jsonBody(initializeTransactionSchema) },
  responses: { 200: answer<DataOf<DataOf<CheckoutStart>>>() },
});

/** `{ data: "success" | "failed", message }`, or null while the payment is pending (the spec's client stops on any body). */
export const squadCallback = route({
  method: "post",
  path: "/squad-callback",
  request: { body: jsonBody(transactionRefSchema) },
  responses: { 200: answer<SquadCallbackAnswer>() },
});

export const verifyPayment = route({
  method: "post",
  path: "/verify-payment",
  request: { body: jsonBody(transactionRefSchema) },
  responses: { 200: answer<PaymentVerdict>() },
});

export const pendingPayments = route({ method: "get", path: "/payments/pending", responses: { 200: answer<DataOf<PendingCardPayment[]>>() } });

export const cryptoCurrencies = route({ method: "get", path: "/now-currencies", responses: { 200: answer<{ selectedCurrencies: string[] }>() } });

export const merchantCurrencies = route({ method: "get", path: "/now-merchant", responses: { 200: answer<MerchantCurrencies>() } });

export const createInvoice = route({
  method: "post",
  path: "/invoice",
  request: { body: jsonBody(createInvoiceSchema) },
  responses: { 200: answer<InvoiceAnswer>() },
});

export const invoiceStatus = route({
  method: "get",
  path: "/now-status",
  request: { query: nowStatusQuerySchema },
  responses: { 200: answer<InvoiceStatusAnswer>() },
});

// ---- Bank transfers (issue 31) ----

export const startTransfer = route({
  method: "post",
  path: "/transfers",
  request: { body: jsonBody(startTransferSchema) },
  responses: { 200: answer<TransferView>() },
});

export const activeTransfer = route({ method: "get", path: "/transfers/active", responses: { 200: answer<DataOf<TransferView | null>>() } });

export const staticAccount = route({ method: "get", path: "/transfers/static-account", responses: { 200: answer<DataOf<StaticAccountView | null>>() } });

export const openStaticAccount = route({
  method: "post",
  path: "/transfers/static-account",
  request: { body: jsonBody(staticAccountSchema) },
  responses: { 200: answer<DataOf<StaticAccountView>>() },
});

export const transfer = route({
  method: "get",
  path: "/transfers/{ref}",
  request: { params: z.object({ ref: z.string().min(1).max(80) }) },
  responses: { 200: answer<TransferView>() },
});
