import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from "@simplewebauthn/browser";
import type { AuthResponse } from "../../schema/accounts";
import type { PasskeyCeremony } from "../../schema/passkeys";
import type { StepUpDone } from "../../schema/answers";
import { saveSession } from "../lib/session";
import { api, json, pathParams, signedIn } from "./client";
import * as queryKeys from "./keys";

// Passkeys and step-up (issue 33, decision 034). @simplewebauthn/browser is imported only inside the calls that run a
// ceremony, so its bytes load when a customer presses a passkey button, never with the login or Settings screen.
const webauthn = () => import("@simplewebauthn/browser");

/** Whether this browser can use passkeys at all (the buttons are hidden otherwise). */
export const passkeysSupported = () => typeof window !== "undefined" && typeof window.PublicKeyCredential === "function";

/**
 * Issue 43: a page opened at an IP address (http://127.0.0.1:8787) cannot use passkeys: WebAuthn's relying party is a
 * domain, and browsers refuse an IP with a bare "127.0.0.1 is an invalid domain". Said before the button is pressed,
 * with the same page at localhost (which browsers accept, as our server does: decision 034) where that is the machine.
 * Null where the address is a name.
 */
export function passkeyAddressProblem(at: Pick<Location, "protocol" | "hostname" | "port" | "pathname" | "search" | "hash"> = window.location): { text: string; href: string | null } | null {
  const host = at.hostname.replace(/^\[|\]$/g, "");
  const ip = /^\d{1,3}(\.\d{1,3}){3}$/.test(host) || host.includes(":");
  if (!ip) return null;
  const loopback = /^127\./.test(host) || host === "::1";
  const href = loopback ? `${at.protocol}//localhost${at.port ? `:${at.port}` : ""}${at.pathname}${at.search}${at.hash}` : null;
  return {
    text: `Passkeys need the site's name, not an IP address: this page is open at ${host}, which browsers refuse for passkeys.${
      href ? " Open the same page at localhost instead (you sign in there once more)." : " Open the site by its name instead."
    }`,
    href,
  };
}

/** A ceremony's failure in words a customer can act on (the browser's SecurityError names only the domain). */
export function passkeyErrorText(err: unknown): string {
  const problem = typeof window !== "undefined" ? passkeyAddressProblem() : null;
  if (err instanceof Error && err.name === "SecurityError" && problem) return problem.text;
  return err instanceof Error ? err.message : "That did not work. Please try again.";
}

/** The browser's "cancelled" / "timed out" is not an error worth a red banner: the customer chose to stop. */
export const isCeremonyCancelled = (err: unknown) => err instanceof Error && (err.name === "NotAllowedError" || err.name === "AbortError");

export const passkeysQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.passkeys, queryFn: () => signedIn.passkeys.$get().then(json).then((r) => r.data), staleTime: 0 });

/** The login page's passkey sign-in: discoverable, so no e-mail is asked. Stores the session like a login. */
export async function signInWithPasskey(): Promise<AuthResponse> {
  const ceremony = await api.login.passkey.options.$post().then(json);
  const { startAuthentication } = await webauthn();
  const response = await startAuthentication({ optionsJSON: browserOptions<PublicKeyCredentialRequestOptionsJSON>(ceremony) });
  return api.login.passkey.verify.$post({ json: { challenge_id: ceremony.challenge_id, response: asJson(response) } }).then(json);
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
    const ceremony = await signedIn.passkeys.options.$post().then(json);
    const { startRegistration } = await webauthn();
    const response = await startRegistration({ optionsJSON: browserOptions<PublicKeyCredentialCreationOptionsJSON>(ceremony) });
    return signedIn.passkeys
      .$post({ json: { challenge_id: ceremony.challenge_id, response: asJson(response), ...(name.trim() ? { name: name.trim() } : {}) } })
      .then(json);
  });

export const useRenamePasskey = () =>
  useAccountSecurityChange(({ id, name }: { id: string; name: string }) =>
    signedIn.passkeys[":id"].$patch({ param: pathParams({ id }), json: { name } }).then(json),
  );

export const useRemovePasskey = () =>
  useAccountSecurityChange((id: string) => signedIn.passkeys[":id"].$delete({ param: pathParams({ id }) }).then(json));

/** Step-up: the session proves itself again with a passkey, a code or (re-authentication only) the password. */
export async function stepUpWithPasskey(): Promise<StepUpDone> {
  const ceremony = await signedIn["step-up"].passkey.options.$post().then(json);
  const { startAuthentication } = await webauthn();
  const response = await startAuthentication({ optionsJSON: browserOptions<PublicKeyCredentialRequestOptionsJSON>(ceremony) });
  return signedIn["step-up"].$post({ json: { challenge_id: ceremony.challenge_id, response: asJson(response) } }).then(json);
}

export const stepUpWith = (proof: { code: string } | { password: string }) => signedIn["step-up"].$post({ json: proof }).then(json);


/**
 * The browser's answer as the server's schema reads it (schema/passkeys.ts, loose objects): the same JSON, copied into
 * plain objects so TypeScript sees them as such (an interface is not assignable to an index signature; a copy is).
 */
type Plain<T> = { [K in keyof T]: T[K] };
type AsJson<R extends AuthenticationResponseJSON | RegistrationResponseJSON> = Omit<R, "response" | "clientExtensionResults"> & {
  response: Plain<R["response"]>;
  clientExtensionResults: Plain<R["clientExtensionResults"]>;
};
function asJson(response: AuthenticationResponseJSON): AsJson<AuthenticationResponseJSON>;
function asJson(response: RegistrationResponseJSON): AsJson<RegistrationResponseJSON>;
function asJson(response: AuthenticationResponseJSON | RegistrationResponseJSON) {
  return { ...response, response: { ...response.response }, clientExtensionResults: { ...response.clientExtensionResults } };
}

/**
 * The one place the web takes a type it cannot check at compile time: a ceremony's options are built by
 * @simplewebauthn/server for @simplewebauthn/browser (the pair is made for each other: WebAuthn Level 3's JSON forms),
 * and schema/ keeps them opaque because it imports no library. What a browser cannot start from is refused here with a
 * sentence instead of a TypeError inside the library.
 */
function browserOptions<O extends PublicKeyCredentialRequestOptionsJSON | PublicKeyCredentialCreationOptionsJSON>(ceremony: PasskeyCeremony): O {
  if (typeof ceremony.options.challenge !== "string") throw new Error("The passkey request could not be started. Please try again.");
  // eslint-disable-next-line @typescript-eslint/consistent-type-assertions, no-restricted-syntax -- library JSON for its own pair, opaque in schema/ (above)
  return ceremony.options as unknown as O;
}
