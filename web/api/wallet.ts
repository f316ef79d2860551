import { queryOptions, useQuery, useQueryClient } from "@tanstack/react-query";
import { getUser } from "../lib/session";
import { pollEvery } from "../realtime/status";
import { json, signedIn } from "./client";
import * as queryKeys from "./keys";

/** GET /api/user-balance: the wallet balance in naira. */
export const getBalance = () => signedIn["user-balance"].$get().then(json).then((res) => res.balance);

/** Spec section 9: balance fresh 10 s, refetched every 30 s and on window focus, up to 3 retries. */
export const balanceQueryOptions = () =>
  queryOptions({
    queryKey: queryKeys.balance,
    queryFn: getBalance,
    staleTime: 10_000,
    refetchInterval: () => pollEvery(30_000),
    refetchOnWindowFocus: true,
    retry: 3,
  });

/** Balance and transactions are fetched only while a user is signed in (spec section 6). */
export const useBalance = () => useQuery({ ...balanceQueryOptions(), enabled: Boolean(getUser()?.userId) });

/** GET /api/get-transaction: the caller's history, newest first (docs/api.md). */
export const getTransactions = () => signedIn["get-transaction"].$get().then(json);

/** Spec section 9: transactions refetched every 5 s, always stale, not on window focus. */
export const TRANSACTIONS_POLL_MS = 5000;

export const transactionsQueryOptions = () =>
  queryOptions({
    queryKey: queryKeys.transactions,
    queryFn: getTransactions,
    staleTime: 0,
    refetchOnWindowFocus: false,
    refetchInterval: () => pollEvery(TRANSACTIONS_POLL_MS),
  });

/** The spec refreshes the balance after each transactions fetch, so a new row and the figure never disagree. */
export function useTransactions() {
  const queryClient = useQueryClient();
  return useQuery({
    ...transactionsQueryOptions(),
    enabled: Boolean(getUser()?.userId),
    queryFn: async () => {
      const rows = await getTransactions();
      void queryClient.invalidateQueries({ queryKey: queryKeys.balance });
      return rows;
    },
  });
}

/** Money moved (a purchase, a refund, a rental): the wallet figure, the history and the orders refetch. */
export function invalidateMoney(queryClient: ReturnType<typeof useQueryClient>) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: queryKeys.balance }),
    queryClient.invalidateQueries({ queryKey: queryKeys.transactions }),
    queryClient.invalidateQueries({ queryKey: queryKeys.orders }),
  ]);
}

/** After a deposit (a confirmed payment, a credited invoice): also the tier (level) and the pending payments. */
export function refreshWallet(queryClient: ReturnType<typeof useQueryClient>) {
  return Promise.all([
    invalidateMoney(queryClient),
    queryClient.invalidateQueries({ queryKey: queryKeys.level }),
    queryClient.invalidateQueries({ queryKey: queryKeys.pendingPayments }),
  ]);
}
