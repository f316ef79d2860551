import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useSyncExternalStore } from "react";
import { untypedRequest } from "../api/client";
import * as queryKeys from "../api/keys";
import type {
  AdminAuditRow,
  AdminCustomer,
  AdminCustomerDetail,
  AdminDepositRow,
  AdminList,
  AdminMe,
  AdminOrderRow,
  AdminOverview,
  AdminPeriod,
  AdminRentalRow,
  AdminSettings,
  ReviewDetailAnswer,
  ReviewQueueItem,
} from "../../schema/admin";

/**
 * The console's calls to /api/admin/* (docs/api.md, "Operator console"). Every query key starts with "admin": the
 * operator's realtime room sends admin.changed and web/realtime/messages.ts invalidates ["admin"] on it. Every body and
 * answer is a schema/admin.ts type (`import type`: no bytes), the same the worker builds its answers as.
 */

// Not yet in the web's contract (schema/web-api.ts covers the customer's screens; decision 043): each call names the
// schema/admin.ts type the worker builds that answer as.
export const adminGet = <T,>(path: string) => untypedRequest(`/api/admin${path}`, { method: "GET", auth: true }) as Promise<T>;
export const adminSend = <T,>(path: string, body: unknown, method = "POST") => untypedRequest(`/api/admin${path}`, { auth: true, method, body }) as Promise<T>;

export const meQuery = () => queryOptions({ queryKey: [...queryKeys.admin, "me"], queryFn: () => adminGet<AdminMe>("/me"), retry: false, staleTime: 60_000 });

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
const testParam = (on: boolean) => (on ? "&test=1" : "");

export const useOverview = (period: AdminPeriod) => {
  const test = useShowTest();
  return useQuery({ queryKey: [...queryKeys.admin, "overview", period, test], queryFn: () => adminGet<AdminOverview>(`/overview?period=${period}${testParam(test)}`), refetchInterval: 60_000 });
};

export const useCustomerSearch = (q: string) => {
  const test = useShowTest();
  return useQuery({
    queryKey: [...queryKeys.admin, "customers", q, test],
    queryFn: () => adminGet<AdminList<AdminCustomer>>(`/customers?q=${encodeURIComponent(q)}${testParam(test)}`).then((r) => r.data),
  });
};

export const useCustomer = (id: string) => useQuery({ queryKey: [...queryKeys.admin, "customer", id], queryFn: () => adminGet<AdminCustomerDetail>(`/customers/${encodeURIComponent(id)}`) });

/** The console's filtered lists, each answered as its row type. */
type ListRows = { deposits: AdminDepositRow; orders: AdminOrderRow; rentals: AdminRentalRow; audit: AdminAuditRow };
export const useList = <N extends keyof ListRows,>(name: N, params: Record<string, string>) => {
  const test = useShowTest();
  const search = new URLSearchParams(Object.entries({ ...params, test: test && name !== "audit" ? "1" : "" }).filter(([, v]) => v)).toString();
  return useQuery({ queryKey: [...queryKeys.admin, name, search], queryFn: () => adminGet<AdminList<ListRows[N]>>(`/${name}${search ? `?${search}` : ""}`).then((r) => r.data) });
};

/** The payment review queue (GET /admin/reviews, docs/decisions/023): crypto arrivals held for review, stale card payments. */
export const useReviews = (status: "open" | "resolved") =>
  useQuery({ queryKey: [...queryKeys.admin, "reviews", status], queryFn: () => adminGet<AdminList<ReviewQueueItem>>(`/reviews?status=${status}`).then((r) => r.data) });
export const useReview = (id: string) =>
  useQuery({ queryKey: [...queryKeys.admin, "review", id], queryFn: () => adminGet<ReviewDetailAnswer>(`/reviews/${encodeURIComponent(id)}`), retry: false });

export const useSettings = () => useQuery({ queryKey: [...queryKeys.admin, "settings"], queryFn: () => adminGet<AdminSettings>("/settings") });

/** A change: POST/PATCH, then every console query refetches (the server also tells other operators' tabs). */
export function useAdminChange<TBody, TAnswer = unknown>(path: string | ((body: TBody) => string), method = "POST") {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TBody) => adminSend<TAnswer>(typeof path === "function" ? path(body) : path, body, method),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: queryKeys.admin }),
  });
}

export const naira = (n: number) => `₦${n.toLocaleString("en-NG", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
export const when = (ms: number | null | undefined) => (ms ? new Date(ms).toLocaleString("en-GB", { dateStyle: "short", timeStyle: "short" }) : "—");
