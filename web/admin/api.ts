import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useSyncExternalStore } from "react";
import { hc, type InferRequestType } from "hono/client";
import type { ConsoleApi } from "../../worker/contract/faces";
import { json, pathParams, send, SIGNED_IN_MARKER } from "../api/client";
import * as queryKeys from "../api/keys";
import type { AdminPeriod } from "../../schema/admin";
import { formatDateTime } from "../../schema/datetime";

/**
 * The console's calls to /api/admin/* (docs/api.md, "Operator console"). Every query key starts with "admin": the
 * operator's realtime room sends admin.changed and web/realtime/messages.ts invalidates ["admin"] on it.
 */

/**
 * The console's typed client (issue 44, decision 065): Hono's `hc` over the console's routes as their definitions
 * declare them (worker/contract/admin.ts), always signed in, every request through web/api/client.ts `send`:
 * `admin.reviews[":id"].$get({ param: pathParams({ id }) }).then(json)`. No caller names an answer's type.
 */
export const admin = hc<ConsoleApi>("/api/admin", { fetch: send, headers: { [SIGNED_IN_MARKER]: "true" } });

/** The list routes' queries as the console sends them (their definitions' query schemas). */
type ListQuery = InferRequestType<typeof admin.orders.$get>["query"];
type DepositListQuery = InferRequestType<typeof admin.deposits.$get>["query"];

export const meQuery = () => queryOptions({ queryKey: [...queryKeys.admin, "me"], queryFn: () => admin.me.$get().then(json), retry: false, staleTime: 60_000 });

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
  return useQuery({ queryKey: [...queryKeys.admin, "overview", period, test], queryFn: () => admin.overview.$get({ query: { period, test: testQuery(test) } }).then(json), refetchInterval: 60_000 });
};

export const useCustomerSearch = (q: string, enabled = true) => {
  const test = useShowTest();
  return useQuery({
    enabled,
    queryKey: [...queryKeys.admin, "customers", q, test],
    queryFn: () => admin.customers.$get({ query: { q, test: testQuery(test) } }).then(json).then((r) => r.data),
  });
};

export const useCustomer = (id: string) =>
  useQuery({ queryKey: [...queryKeys.admin, "customer", id], queryFn: () => admin.customers[":id"].$get({ param: pathParams({ id }) }).then(json) });

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
  return useQuery({ queryKey: [...queryKeys.admin, "orders", query], queryFn: () => admin.orders.$get({ query }).then(json).then((r) => r.data) });
};
export const useRentals = (filter: FilterValues) => {
  const query = listQuery(filter, useShowTest());
  return useQuery({ queryKey: [...queryKeys.admin, "rentals", query], queryFn: () => admin.rentals.$get({ query }).then(json).then((r) => r.data) });
};
export const useDeposits = (filter: FilterValues) => {
  const query: DepositListQuery = { ...listQuery(filter, useShowTest()), channel: channelOf(filter.channel) };
  return useQuery({ queryKey: [...queryKeys.admin, "deposits", query], queryFn: () => admin.deposits.$get({ query }).then(json).then((r) => r.data) });
};
export const useAuditLog = (filter: FilterValues) => {
  const query = { actor: text(filter.actor), action: text(filter.action), subject: text(filter.subject) };
  return useQuery({ queryKey: [...queryKeys.admin, "audit", query], queryFn: () => admin.audit.$get({ query }).then(json).then((r) => r.data) });
};

/** The payment review queue (GET /admin/reviews, docs/decisions/023): crypto arrivals held for review, stale card payments. */
export const useReviews = (status: "open" | "resolved") =>
  useQuery({ queryKey: [...queryKeys.admin, "reviews", status], queryFn: () => admin.reviews.$get({ query: { status } }).then(json).then((r) => r.data) });
export const useReview = (id: string) =>
  useQuery({ queryKey: [...queryKeys.admin, "review", id], queryFn: () => admin.reviews[":id"].$get({ param: pathParams({ id }) }).then(json), retry: false });

export const useSettings = () => useQuery({ queryKey: [...queryKeys.admin, "settings"], queryFn: () => admin.settings.$get().then(json) });

/**
 * A change: one `admin` call (its route, parameters and body typed by the route's definition), then every console
 * query refetches (the server also tells other operators' tabs).
 * `useAdminChange((json: ReasonBody) => admin.customers[":id"].block.$post({ param, json }).then(json))`.
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
