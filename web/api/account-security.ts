import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { AccountState, MessageAnswer, SignedInDevice, TwoFactorDisableInput, TwoFactorSetup, TwoFactorState, VerifyEmailInput } from "../../schema/accounts";
import { getUser } from "../lib/session";
import { apiFetch } from "./client";
import * as queryKeys from "./keys";

// Account security (docs/api.md "Account security", issue 12): verification, signed-in devices, two-factor sign-in.

export const accountQueryOptions = () =>
  queryOptions({
    queryKey: queryKeys.account,
    queryFn: () => apiFetch<AccountState>("/api/account", { auth: true }),
    // Verification happens in another tab (the e-mailed link): check again when the customer comes back, but a
    // verified address never needs asking again.
    staleTime: (q) => (q.state.data?.email_verified ? Infinity : 60_000),
    refetchOnWindowFocus: true,
  });

export const useAccount = () => useQuery({ ...accountQueryOptions(), enabled: Boolean(getUser()?.userId) });

export const sessionsQueryOptions = () =>
  queryOptions({
    queryKey: queryKeys.sessions,
    queryFn: () => apiFetch<{ data: SignedInDevice[] }>("/api/sessions", { auth: true }).then((r) => r.data),
    staleTime: 0,
  });

export const twoFactorQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.twoFactor, queryFn: () => apiFetch<TwoFactorState>("/api/2fa", { auth: true }), staleTime: 0 });

export const verifyEmail = (input: VerifyEmailInput) => apiFetch<MessageAnswer>("/api/verify-email", { method: "POST", body: input });

export const useResendVerification = () =>
  useMutation({ mutationFn: () => apiFetch<MessageAnswer>("/api/verify-email/resend", { method: "POST", auth: true }) });

export function useRevokeSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiFetch<{ revoked: number; current: boolean }>(`/api/sessions/${encodeURIComponent(id)}/revoke`, { method: "POST", auth: true }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.sessions }),
  });
}

export const useRevokeAllSessions = () =>
  useMutation({ mutationFn: () => apiFetch<{ revoked: number }>("/api/sessions/revoke-all", { method: "POST", auth: true }) });

function useTwoFactorChange<I, O>(fn: (input: I) => Promise<O>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.twoFactor });
      void queryClient.invalidateQueries({ queryKey: queryKeys.account });
    },
  });
}

export const useStartTwoFactor = () =>
  useMutation({ mutationFn: () => apiFetch<TwoFactorSetup>("/api/2fa/setup", { method: "POST", auth: true }) });

export const useEnableTwoFactor = () =>
  useTwoFactorChange((code: string) => apiFetch<{ message: string; recovery_codes: string[] }>("/api/2fa/enable", { method: "POST", body: { code }, auth: true }));

export const useDisableTwoFactor = () =>
  useTwoFactorChange((input: TwoFactorDisableInput) => apiFetch<MessageAnswer>("/api/2fa/disable", { method: "POST", body: input, auth: true }));
