import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { TwoFactorDisableInput, VerifyEmailInput } from "../../schema/accounts";
import { getUser } from "../lib/session";
import { api, json, pathParams, signedIn } from "./client";
import * as queryKeys from "./keys";

// Account security (docs/api.md "Account security", issue 12): verification, signed-in devices, two-factor sign-in.

export const accountQueryOptions = () =>
  queryOptions({
    queryKey: queryKeys.account,
    queryFn: () => signedIn.account.$get().then(json),
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
    queryFn: () => signedIn.sessions.$get().then(json).then((r) => r.data),
    staleTime: 0,
  });

export const twoFactorQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.twoFactor, queryFn: () => signedIn["2fa"].$get().then(json), staleTime: 0 });

export const verifyEmail = (input: VerifyEmailInput) => api["verify-email"].$post({ json: input }).then(json);

export const useResendVerification = () =>
  useMutation({ mutationFn: () => signedIn["verify-email"].resend.$post().then(json) });

export function useRevokeSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => signedIn.sessions[":id"].revoke.$post({ param: pathParams({ id }) }).then(json),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.sessions }),
  });
}

export const useRevokeAllSessions = () =>
  useMutation({ mutationFn: () => signedIn.sessions["revoke-all"].$post().then(json) });

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
  useMutation({ mutationFn: () => signedIn["2fa"].setup.$post().then(json) });

export const useEnableTwoFactor = () =>
  useTwoFactorChange((code: string) => signedIn["2fa"].enable.$post({ json: { code } }).then(json));

export const useDisableTwoFactor = () =>
  useTwoFactorChange((input: TwoFactorDisableInput) => signedIn["2fa"].disable.$post({ json: input }).then(json));
