import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import type { PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON } from "@simplewebauthn/browser";
import type { AuthResponse, MessageAnswer } from "../../schema/accounts";
import type { PasskeyCeremony, PasskeyView, StepUpState } from "../../schema/passkeys";
import { saveSession } from "../lib/session";
import { apiFetch } from "./client";
import * as queryKeys from "./keys";

// Passkeys and step-up (issue 33, decision 034). @simplewebauthn/browser is imported only inside the calls that run a
// ceremony, so its bytes load when a customer presses a passkey button, never with the login or Settings screen.
const webauthn = () => import("@simplewebauthn/browser");

/** Whether this browser can use passkeys at all (the buttons are hidden otherwise). */
export const passkeysSupported = () => typeof window !== "undefined" && typeof window.PublicKeyCredential === "function";

/** The browser's "cancelled" / "timed out" is not an error worth a red banner: the customer chose to stop. */
export const isCeremonyCancelled = (err: unknown) => err instanceof Error && (err.name === "NotAllowedError" || err.name === "AbortError");

export const passkeysQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.passkeys, queryFn: () => apiFetch<{ data: PasskeyView[] }>("/api/passkeys", { auth: true }).then((r) => r.data), staleTime: 0 });

/** The login page's passkey sign-in: discoverable, so no e-mail is asked. Stores the session like a login. */
export async function signInWithPasskey(): Promise<AuthResponse> {
  const ceremony = await apiFetch<PasskeyCeremony<PublicKeyCredentialRequestOptionsJSON>>("/api/login/passkey/options", { method: "POST" });
  const { startAuthentication } = await webauthn();
  const response = await startAuthentication({ optionsJSON: ceremony.options });
  return apiFetch<AuthResponse>("/api/login/passkey/verify", { method: "POST", body: { challenge_id: ceremony.challenge_id, response } });
}

export function useSignInWithPasskey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: signInWithPasskey,
    onSuccess: ({ user, token }) => {
      queryClient.clear();
      saveSession(user, token);
    },
  });
}

function useAccountSecurityChange<I, O>(fn: (input: I) => Promise<O>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.passkeys });
      void queryClient.invalidateQueries({ queryKey: queryKeys.account });
    },
  });
}

/** Settings' "Add a passkey": the server's options, the browser's ceremony, the server's verification. */
export const useAddPasskey = () =>
  useAccountSecurityChange(async (name: string) => {
    const ceremony = await apiFetch<PasskeyCeremony<PublicKeyCredentialCreationOptionsJSON>>("/api/passkeys/options", { method: "POST", auth: true });
    const { startRegistration } = await webauthn();
    const response = await startRegistration({ optionsJSON: ceremony.options });
    return apiFetch<{ message: string; passkey: PasskeyView }>("/api/passkeys", {
      method: "POST",
      auth: true,
      body: { challenge_id: ceremony.challenge_id, response, ...(name.trim() ? { name: name.trim() } : {}) },
    });
  });

export const useRenamePasskey = () =>
  useAccountSecurityChange(({ id, name }: { id: string; name: string }) =>
    apiFetch<{ message: string; passkey: PasskeyView }>(`/api/passkeys/${encodeURIComponent(id)}`, { method: "PATCH", auth: true, body: { name } }),
  );

export const useRemovePasskey = () =>
  useAccountSecurityChange((id: string) => apiFetch<MessageAnswer>(`/api/passkeys/${encodeURIComponent(id)}`, { method: "DELETE", auth: true }));

/** Step-up: the session proves itself again with a passkey, a code or (re-authentication only) the password. */
export async function stepUpWithPasskey(): Promise<StepUpState & { message: string }> {
  const ceremony = await apiFetch<PasskeyCeremony<PublicKeyCredentialRequestOptionsJSON>>("/api/step-up/passkey/options", { method: "POST", auth: true });
  const { startAuthentication } = await webauthn();
  const response = await startAuthentication({ optionsJSON: ceremony.options });
  return apiFetch("/api/step-up", { method: "POST", auth: true, body: { challenge_id: ceremony.challenge_id, response } });
}

export const stepUpWith = (proof: { code: string } | { password: string }) =>
  apiFetch<StepUpState & { message: string }>("/api/step-up", { method: "POST", auth: true, body: proof });
