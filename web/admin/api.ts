import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useSyncExternalStore } from "react";
import { callRoute, type RouteArgs } from "../api/client";
import * as queryKeys from "../api/keys";
import type { AdminPeriod } from "../../schema/admin";
import { formatDateTime } from "../../schema/datetime";
import type { AdminApi, AdminRoute, DepositListQuery, ListQuery } from "../../schema/admin-api";

/**
 * The console's calls to /api/admin/* (docs/api.md, "Operator console"). Every query key starts with "admin": the
 * operator's realtime room sends admin.changed and web/realtime/messages.ts invalidates ["admin"] on it.
 */

/**
 * Calls one route of the console's contract (schema/admin-api.ts, checked against worker/routes/admin.ts at compile
 * time; decision 053), always signed in: `adminApi("GET /api/admin/reviews/:id", { params: { id } })`. The answer is
 * the route's declared shape; no caller names its type.
 */
export function adminApi<R extends AdminRoute>(route: R, ...[options]: RouteArgs<AdminApi, R>): Promise<AdminApi[R]["answer"]> {
  return callRoute<AdminApi, R>(route, options, { auth: true });
}

export const meQuery = () => queryOptions({ queryKey: [...queryKeys.admin, "me"], queryFn: () => adminApi("GET /api/admin/me"), retry: false, staleTime: 60_000 });

/**
 * "Show test activity" (issue 28): sandbox accounts' wallets, orders and credits are left out of the console's figures
 * and lists unless the operator turns this on (header toggle). One switch for the whole console, kept for the tab.
 */
let showTest = false;
const testListeners = new Set<() => void>();
export function setShowTest(value: boolean) {
  showTest = value;
  for (const listener of testListeners) listener();
}
export const useShowTest = () =>
  useSyncExternalStore(
    (listener) => {
      testListeners.add(listener);
      return () => testListeners.delete(listener);
    },
    () => showTest,
  );
/** The test switch as a query value: "1" when on, left out when off. */
const testQuery = (on: boolean) => (on ? ("1" as const) : undefined);

export const useOverview = (period: AdminPeriod) => {
  const test = useShowTest();
  return useQuery({ queryKey: [...queryKeys.admin, "overview", period, test], queryFn: () => adminApi("GET /api/admin/overview", { query: { period, test: testQuery(test) } }), refetchInterval: 60_000 });
};

export const useCustomerSearch = (q: string, enabled = true) => {
  const test = useShowTest();
  return useQuery({
    enabled,
    queryKey: [...queryKeys.admin, "customers", q, test],
    queryFn: () => adminApi("GET /api/admin/customers", { query: { q, test: testQuery(test) } }).then((r) => r.data),
  });
};

export const useCustomer = (id: string) => useQuery({ queryKey: [...queryKeys.admin, "customer", id], queryFn: () => adminApi("GET /api/admin/customers/:id", { params: { id } }) });

/**
 * The filter row's values (web/admin/pages/filters.tsx: text fields and selects, "" for "any") as the list routes'
 * queries: empty values are left out, a switch is "1" or absent, a channel is one the route knows.
 */
export type FilterValues = Record<string, string>;
const text = (value: string | undefined) => value || undefined;
const on = (value: string | undefined) => (value === "1" ? ("1" as const) : undefined);
const CHANNELS = ["card", "crypto", "transfer"] as const;
const channelOf = (value: string | undefined) => CHANNELS.find((c) => c === value);
function listQuery(filter: FilterValues, test: boolean): ListQuery {
  return { status: text(filter.status), provider: text(filter.provider), service: text(filter.service), customer: text(filter.customer), stuck: on(filter.stuck), test: testQuery(test) };
}

/** Orders, rentals, deposits and the audit log, each filtered, each answered as its own rows. */
export const useOrders = (filter: FilterValues) => {
  const query = listQuery(filter, useShowTest());
  return useQuery({ queryKey: [...queryKeys.admin, "orders", query], queryFn: () => adminApi("GET /api/admin/orders", { query }).then((r) => r.data) });
};
export const useRentals = (filter: FilterValues) => {
  const query = listQuery(filter, useShowTest());
  return useQuery({ queryKey: [...queryKeys.admin, "rentals", query], queryFn: () => adminApi("GET /api/admin/rentals", { query }).then((r) => r.data) });
};
export const useDeposits = (filter: FilterValues) => {
  const query: DepositListQuery = { ...listQuery(filter, useShowTest()), channel: channelOf(filter.channel) };
  return useQuery({ queryKey: [...queryKeys.admin, "deposits", query], queryFn: () => adminApi("GET /api/admin/deposits", { query }).then((r) => r.data) });
};
export const useAuditLog = (filter: FilterValues) => {
  const query = { actor: text(filter.actor), action: text(filter.action), subject: text(filter.subject) };
  return useQuery({ queryKey: [...queryKeys.admin, "audit", query], queryFn: () => adminApi("GET /api/admin/audit", { query }).then((r) => r.data) });
};

/** The payment review queue (GET /admin/reviews, docs/decisions/023): crypto arrivals held for review, stale card payments. */
export const useReviews = (status: "open" | "resolved") =>
  useQuery({ queryKey: [...queryKeys.admin, "reviews", status], queryFn: () => adminApi("GET /api/admin/reviews", { query: { status } }).then((r) => r.data) });
export const useReview = (id: string) =>
  useQuery({ queryKey: [...queryKeys.admin, "review", id], queryFn: () => adminApi("GET /api/admin/reviews/:id", { params: { id } }), retry: false });

export const useSettings = () => useQuery({ queryKey: [...queryKeys.admin, "settings"], queryFn: () => adminApi("GET /api/admin/settings") });

/**
 * A change: one `adminApi` call (its route, parameters and body typed by the contract), then every console query
 * refetches (the server also tells other operators' tabs). `useAdminChange((b: ReasonBody) => adminApi("POST ...", { params, body: b }))`.
 */
export function useAdminChange<TVariables, TAnswer>(change: (variables: TVariables) => Promise<TAnswer>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: change,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: queryKeys.admin }),
  });
}

export { naira } from "../../schema/money";
/** Every console time in the app's one clock and format (schema/datetime.ts: Lagos, "Nov 29, 3:08 AM WAT"). */
export const when = (at: number | string | null | undefined) => formatDateTime(at);
