import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { TwoFactorDisableInput, VerifyEmailInput } from "../../schema/accounts";
import { getUser } from "../lib/session";
import { api } from "./client";
import * as queryKeys from "./keys";

// Account security (docs/api.md "Account security", issue 12): verification, signed-in devices, two-factor sign-in.

export const accountQueryOptions = () =>
  queryOptions({
    queryKey: queryKeys.account,
    queryFn: () => api("GET /api/account", { auth: true }),
    // Verification happens elsewhere (the e-mailed link, maybe in another browser): while unconfirmed, every screen
    // that mounts asks again (a reload read the session's stored answer for a minute: issue 43), so does coming back
    // to the tab, and an open tab checks each minute; a verified address never needs asking again.
    staleTime: (q) => (q.state.data?.email_verified ? Infinity : 0),
    refetchInterval: (q) => (q.state.data && !q.state.data.email_verified ? 60_000 : false),
    refetchOnWindowFocus: true,
  });

export const useAccount = () => useQuery({ ...accountQueryOptions(), enabled: Boolean(getUser()?.userId) });

export const sessionsQueryOptions = () =>
  queryOptions({
    queryKey: queryKeys.sessions,
    queryFn: () => api("GET /api/sessions", { auth: true }).then((r) => r.data),
    staleTime: 0,
  });

export const twoFactorQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.twoFactor, queryFn: () => api("GET /api/2fa", { auth: true }), staleTime: 0 });

export const verifyEmail = (input: VerifyEmailInput) => api("POST /api/verify-email", { body: input });

export const useResendVerification = () =>
  useMutation({ mutationFn: () => api("POST /api/verify-email/resend", { auth: true }) });

export function useRevokeSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api("POST /api/sessions/:id/revoke", { params: { id }, auth: true }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.sessions }),
  });
}

export const useRevokeAllSessions = () =>
  useMutation({ mutationFn: () => api("POST /api/sessions/revoke-all", { auth: true }) });

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
  useMutation({ mutationFn: () => api("POST /api/2fa/setup", { auth: true }) });

export const useEnableTwoFactor = () =>
  useTwoFactorChange((code: string) => api("POST /api/2fa/enable", { body: { code }, auth: true }));

export const useDisableTwoFactor = () =>
  useTwoFactorChange((input: TwoFactorDisableInput) => api("POST /api/2fa/disable", { body: input, auth: true }));
