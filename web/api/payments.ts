import { queryOptions, useMutation, useQuery } from "@tanstack/react-query";
import type { RateSettingsRow } from "../../schema/settings";
import type { PaymentConfirmation } from "../../schema/wallet";
import { getUser } from "../lib/session";
import { pollEvery } from "../realtime/status";
import { json, signedIn } from "./client";
import * as queryKeys from "./keys";

// Funding calls (docs/api.md, Wallet). The server takes the user from the token: the spec's id/email/order_id fields
// are sent for compatibility and ignored there.

/** Shown until GET /api/get-rate answers (the seeded settings). */
export const RATE_DEFAULTS: RateSettingsRow = { cryptomin: 5, rate: 1600, exchange_rate: 1600, squadmin: 1000, crypto_rate: 1550 };

/** GET /api/get-rate (first element): the funding minimums and rates. */
export const getRateSettings = () => signedIn["get-rate"].$get().then(json).then((rows) => ({ ...RATE_DEFAULTS, ...rows[0] }));

/** Spec section 9: rate cached 5 minutes. */
export const rateSettingsQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.rateSettings, queryFn: getRateSettings, staleTime: 5 * 60_000 });

export const useRateSettings = () => useQuery(rateSettingsQueryOptions());

/** POST /api/initialize-transaction: a Squad checkout for `amount` naira. */
export const initializeTransaction = (amount: number, currency: "NGN" = "NGN") => {
  const user = getUser();
  return signedIn["initialize-transaction"].$post({ json: { id: user?.userId, email: user?.userEmail, amount, currency } }).then(json).then((res) => res.data.data);
};

export const useInitializeTransaction = () =>
  useMutation({ mutationFn: ({ amount, currency }: { amount: number; currency?: "NGN" }) => initializeTransaction(amount, currency) });

/**
 * POST /api/squad-callback: the dashboard's return polling (the server asks Squad itself). The body is
 * `{ data: "success" | "failed", message }`, or null while the payment is pending; read here as the outcome.
 */
export const confirmCardPayment = (transactionRef: string) =>
  signedIn["squad-callback"].$post({ json: { transaction_ref: transactionRef } }).then(json).then((res): PaymentConfirmation => res?.data ?? "pending");

/** POST /api/verify-payment: the pending card's Verify Payment button. */
export const verifyPayment = (transactionRef: string) =>
  signedIn["verify-payment"].$post({ json: { transaction_ref: transactionRef } }).then(json);

/** GET /api/payments/pending: card payments the server still holds as pending (also those begun on another device). */
export const getServerPendingPayments = () =>
  signedIn.payments.pending.$get().then(json).then((res) => res.data);

export const pendingPaymentsQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.pendingPayments, queryFn: getServerPendingPayments, staleTime: 30_000 });

export const useServerPendingPayments = () => useQuery(pendingPaymentsQueryOptions());

/** GET /api/now-merchant: the merchant's coins; only those available_for_payment are offered. */
export const getMerchantCurrencies = () =>
  signedIn["now-merchant"].$get().then(json).then((res) => res.currencies);

export const merchantCurrenciesQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.merchantCurrencies, queryFn: getMerchantCurrencies, staleTime: 5 * 60_000 });

export const useMerchantCurrencies = () => useQuery(merchantCurrenciesQueryOptions());

/** POST /api/invoice: a NOWPayments payment for `priceAmount` US dollars paid in `payCurrency`. */
export const createInvoice = (priceAmount: number, payCurrency: string) => {
  const user = getUser();
  return signedIn.invoice
    .$post({
      json: {
        price_amount: priceAmount,
        order_id: user?.userId,
        email: user?.userEmail,
        pay_currency: payCurrency,
        order_description: "deposit",
      },
    })
    .then(json)
    .then((invoice) => ({ ...invoice, payment_id: String(invoice.payment_id) }));
};

export const useCreateInvoice = () =>
  useMutation({ mutationFn: ({ priceAmount, payCurrency }: { priceAmount: number; payCurrency: string }) => createInvoice(priceAmount, payCurrency) });

export const getInvoiceStatus = (paymentId: string) =>
  signedIn["now-status"].$get({ query: { payment_id: paymentId } }).then(json);

/** Spec: invoice status polled every 8 s (longer while the realtime socket pushes payment events). */
export const INVOICE_POLL_MS = 8000;

export const invoiceStatusQueryOptions = (paymentId: string) =>
  queryOptions({
    queryKey: queryKeys.invoice(paymentId),
    queryFn: () => getInvoiceStatus(paymentId),
    staleTime: 0,
    refetchInterval: () => pollEvery(INVOICE_POLL_MS),
    refetchIntervalInBackground: true,
  });

export const useInvoiceStatus = (paymentId: string | null) =>
  useQuery({ ...invoiceStatusQueryOptions(paymentId ?? ""), enabled: Boolean(paymentId) });
