import { useCallback } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type {
  AuthResponse,
  ForgotPasswordInput,
  LoginChallenge,
  LoginInput,
  LoginTwoFactorInput,
  PasswordChangeInput,
  ProfileUpdateInput,
  RegisterInput,
  ResetPasswordInput,
} from "../../schema/accounts";
import { clearSession, getToken, getUser, saveSession, updateStoredUser } from "../lib/session";
import { api, json, pathParams, signedIn } from "./client";
import * as queryKeys from "./keys";

// Accounts (docs/api.md). Each call is a fetcher plus a mutation hook that keeps the stored session in step.

export const register = (input: RegisterInput) => api.register.$post({ json: input }).then(json);

/** With two-factor sign-in on, login answers a challenge instead of the session (docs/api.md "Account security"). */
export const login = (input: LoginInput) => api.login.$post({ json: input }).then(json);

/** The second step: the challenge and a code from the authenticator app (or a recovery code). */
export const loginTwoFactor = (input: LoginTwoFactorInput) => api.login["2fa"].$post({ json: input }).then(json);

/** GET /api/referral/:code (public): who invited this visitor (a first name) and the referral reward (issue 28). */
export const getReferralInvitation = (code: string) => api.referral[":code"].$get({ param: pathParams({ code }) }).then(json);

/** Read once per code: an unknown code (404) is not retried, and the form says so only when it is sent. */
export const useReferralInvitation = (code: string | null) =>
  useQuery({
    queryKey: queryKeys.referralInvitation(code ?? ""),
    queryFn: () => getReferralInvitation(code ?? ""),
    enabled: Boolean(code),
    retry: false,
    staleTime: 10 * 60_000,
  });

export const isChallenge = (res: AuthResponse | LoginChallenge): res is LoginChallenge => "two_factor_required" in res;

export const logout = (token: string) => signedIn.logout.$post(undefined, { headers: { Authorization: `Bearer ${token}` } }).then(json);

/** The body is the message itself, a JSON string (SPEC 7 "data is a text message"). */
export const updateProfile = (input: ProfileUpdateInput) => signedIn.update.$patch({ json: input }).then(json);

/** The body is `{ data: message }` (SPEC 7 "data.data message"). */
export const changePassword = (input: PasswordChangeInput) => signedIn.password.$patch({ json: input }).then(json);

export const forgotPassword = (input: ForgotPasswordInput) => api["forgot-password"].$post({ json: input }).then(json);

export const resetPassword = (input: ResetPasswordInput) => api["reset-password"].$post({ json: input }).then(json);

/** Signs a new user up and stores the session. */
export function useRegister() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: register,
    onSuccess: ({ user, token }) => {
      // A previous user's cached data must never show for this one.
      queryClient.clear();
      saveSession(user, token);
    },
  });
}

/** Stores the session when login answers one; a two-factor challenge is left to the page (nothing is stored yet). */
export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: login,
    onSuccess: (res) => {
      if (isChallenge(res)) return;
      queryClient.clear();
      saveSession(res.user, res.token);
    },
  });
}

export function useLoginTwoFactor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: loginTwoFactor,
    onSuccess: ({ user, token }) => {
      queryClient.clear();
      saveSession(user, token);
    },
  });
}

/**
 * Logout (spec section 4): the stored user, token and query cache are cleared at once, so nothing signed-in runs after
 * the click (a late poll answered 401 no longer counts: see web/api/client.ts); the captured token then revokes the session on
 * the server, which also closes this tab's realtime socket.
 */
export function useLogout() {
  const queryClient = useQueryClient();
  return useCallback(() => {
    const token = getToken();
    clearSession();
    queryClient.clear();
    if (token) void logout(token).catch(() => undefined);
  }, [queryClient]);
}

export function useUpdateProfile() {
  return useMutation({
    mutationFn: updateProfile,
    // The answer is only a message: the stored user takes what was sent (the server trims the same way).
    onSuccess: (_res, input) => {
      const current = getUser();
      updateStoredUser({ ...current, username: input.username.trim(), userNumber: input.userNumber.trim() });
    },
  });
}

/** The server revokes every other session and keeps this one: the stored token stays valid, nothing to store. */
export function useChangePassword() {
  const queryClient = useQueryClient();
  // A new password clears "choose a new password" (issue 33): the account state is read again.
  return useMutation({ mutationFn: changePassword, onSuccess: () => void queryClient.invalidateQueries({ queryKey: queryKeys.account }) });
}

export const useForgotPassword = () => useMutation({ mutationFn: forgotPassword });

export const useResetPassword = () => useMutation({ mutationFn: resetPassword });
