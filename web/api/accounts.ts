import { useMutation, useQueryClient } from "@tanstack/react-query";
import type {
  AuthResponse,
  ForgotPasswordInput,
  LoginInput,
  PasswordChangeInput,
  ProfileUpdateInput,
  RegisterInput,
  ResetPasswordInput,
  SessionUser,
} from "../../schema/accounts";
import { clearSession, getUser, saveSession, updateStoredUser } from "../lib/session";
import { apiFetch } from "./client";

// Accounts (docs/api.md). Each call is a fetcher plus a mutation hook that keeps the stored session in step.

export const register = (input: RegisterInput) =>
  apiFetch<AuthResponse>("/api/register/", { method: "POST", body: input });

export const login = (input: LoginInput) => apiFetch<AuthResponse>("/api/login", { method: "POST", body: input });

export const logout = () => apiFetch<{ message: string }>("/api/logout/", { method: "POST", auth: true });

export const updateProfile = (input: ProfileUpdateInput) =>
  apiFetch<{ data: string; user?: SessionUser }>("/api/update/", { method: "PATCH", body: input, auth: true });

export const changePassword = (input: PasswordChangeInput) =>
  apiFetch<{ data: { data: string }; token?: string }>("/api/password", { method: "PATCH", body: input, auth: true });

export const forgotPassword = (input: ForgotPasswordInput) =>
  apiFetch<{ message: string }>("/api/forgot-password", { method: "POST", body: input });

export const resetPassword = (input: ResetPasswordInput) =>
  apiFetch<{ message: string }>("/api/reset-password", { method: "POST", body: input });

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

export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: login,
    onSuccess: ({ user, token }) => {
      queryClient.clear();
      saveSession(user, token);
    },
  });
}

/**
 * Logout (spec section 4): revokes the session on the server, then clears the stored user, token and query cache
 * whatever the answer (a dead network must not keep a person signed in on this device).
 */
export function useLogout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => logout().catch(() => undefined),
    onSettled: () => {
      clearSession();
      queryClient.clear();
    },
  });
}

export function useUpdateProfile() {
  return useMutation({
    mutationFn: updateProfile,
    onSuccess: (res, input) => {
      const current = getUser();
      updateStoredUser(res.user ?? { ...current, username: input.username.trim(), userNumber: input.userNumber.trim() });
    },
  });
}

/** The server revokes every other session and hands this tab a fresh token. */
export function useChangePassword() {
  return useMutation({
    mutationFn: changePassword,
    onSuccess: (res) => {
      const user = getUser();
      if (res.token && user) saveSession(user, res.token);
    },
  });
}

export const useForgotPassword = () => useMutation({ mutationFn: forgotPassword });

export const useResetPassword = () => useMutation({ mutationFn: resetPassword });
