import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "../api/client";
import * as queryKeys from "../api/keys";
import type { ReviewDetailAnswer, ReviewQueueItem, ReviewVerification } from "../../schema/admin";

/**
 * The console's calls to /api/admin/* (docs/api.md, "Operator console"). Every query key starts with "admin": the
 * operator's realtime room sends admin.changed and web/realtime/messages.ts invalidates ["admin"] on it.
 */

export const adminGet = <T,>(path: string) => apiFetch<T>(`/api/admin${path}`, { auth: true });
export const adminSend = <T,>(path: string, body: unknown, method = "POST") => apiFetch<T>(`/api/admin${path}`, { auth: true, method, body });

export type Me = { id: string; email: string; username: string };
export const meQuery = () => queryOptions({ queryKey: [...queryKeys.admin, "me"], queryFn: () => adminGet<Me>("/me"), retry: false, staleTime: 60_000 });

export type Period = "today" | "7d" | "30d";
export type StuckItem = { kind: string; id: string; user_id: string; status: string; amount_kobo: number; created: string };
export type Overview = {
  period: Period;
  moneyHeld: number;
  customers: number;
  deposits: { channel: string; count: number; amount: number }[];
  manualCredits: number;
  spend: number;
  refunds: number;
  margin: { provider: string; service: string; orders: number; paid: number; upstreamCost: number | null; margin: number | null }[];
  ordersByOutcome: { status: string; count: number }[];
  performance: { provider: string; service: string; orders: number; codes: number; refunds: number; successRate: number; medianSecondsToCode: number | null }[];
  activeRentals: number;
  upstreams: { provider: string; status: string; balanceUsd: number | null; floorUsd: number | null; checkedAt: number | null }[];
  attention: { stuck: StuckItem[]; reviews: number };
};
export const useOverview = (period: Period) =>
  useQuery({ queryKey: [...queryKeys.admin, "overview", period], queryFn: () => adminGet<Overview>(`/overview?period=${period}`), refetchInterval: 60_000 });

export type Customer = {
  id: string;
  username: string;
  email: string;
  phone: string;
  role: string;
  balance: number;
  totalDeposited: number;
  blocked: boolean;
  emailVerified: boolean;
  twoFactor: boolean;
  emailOptOut: boolean;
  createdAt: number;
};
export const useCustomerSearch = (q: string) =>
  useQuery({ queryKey: [...queryKeys.admin, "customers", q], queryFn: () => adminGet<{ data: Customer[] }>(`/customers?q=${encodeURIComponent(q)}`).then((r) => r.data) });

export type LedgerRow = { id: number; key: string; kind: string; amount: number; note: string; createdAt: number };
export type OrderRow = { id: string; userId: string; provider: string; country: string; service: string; price: number; number: string | null; code: string | null; status: string; createdAt: number };
export type RentalRow = { id: string; userId: string; provider: string; country: string; unit: string; period: number; price: number; number: string | null; status: string; expiresAt: number | null; createdAt: number };
export type DepositRow = { id: string; userId: string; channel: string; status: string; amount: number; payCurrency: string | null; payAmount: string | null; createdAt: number };
export type AuditRow = { id: number; actor: string; action: string; subject: string | null; detail: unknown; previous: unknown; reason: string | null; createdAt: number };
export type CustomerDetail = {
  customer: Customer;
  tier: { name: string; percentage: number } | null;
  ledger: LedgerRow[];
  orders: OrderRow[];
  rentals: RentalRow[];
  deposits: DepositRow[];
  sessions: { id: string; createdAt: number; lastSeenAt: number | null; userAgent: string | null; country: string | null }[];
  audit: AuditRow[];
};
export const useCustomer = (id: string) => useQuery({ queryKey: [...queryKeys.admin, "customer", id], queryFn: () => adminGet<CustomerDetail>(`/customers/${encodeURIComponent(id)}`) });

export const useList = <T,>(name: "deposits" | "orders" | "rentals" | "audit", params: Record<string, string>) => {
  const search = new URLSearchParams(Object.entries(params).filter(([, v]) => v)).toString();
  return useQuery({ queryKey: [...queryKeys.admin, name, search], queryFn: () => adminGet<{ data: T[] }>(`/${name}${search ? `?${search}` : ""}`).then((r) => r.data) });
};

/** The payment review queue (GET /admin/reviews, docs/decisions/023): crypto arrivals held for review, stale card payments. */
export type ReviewItem = ReviewQueueItem;
export type Verification = ReviewVerification;
export type ReviewDetail = ReviewDetailAnswer;
export const useReviews = (status: "open" | "resolved") =>
  useQuery({ queryKey: [...queryKeys.admin, "reviews", status], queryFn: () => adminGet<{ data: ReviewItem[] }>(`/reviews?status=${status}`).then((r) => r.data) });
export const useReview = (id: string) =>
  useQuery({ queryKey: [...queryKeys.admin, "review", id], queryFn: () => adminGet<ReviewDetail>(`/reviews/${encodeURIComponent(id)}`), retry: false });

export type SettingsAnswer = { settings: Record<string, unknown>; defaults: Record<string, unknown>; history: AuditRow[] };
export const useSettings = () => useQuery({ queryKey: [...queryKeys.admin, "settings"], queryFn: () => adminGet<SettingsAnswer>("/settings") });

export type Reconcile = { ok: boolean; customers: number; ledgerRows: number; moneyHeld: number; ledgerTotal: number; conserved: boolean; differences: { userId: string; email: string; balance: number; ledger: number; difference: number }[]; checkedAt: number };

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
