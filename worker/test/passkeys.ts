import { expect } from "vitest";
import { api, type TestUser } from "./helpers";
import { SoftwareAuthenticator } from "./software-authenticator";

/**
 * Passkeys for tests outside routes/passkeys.test.ts (sign-in, resets, the console): the real Settings ceremony with a
 * software authenticator. The test worker's PUBLIC_URL is http://127.0.0.1:8787, whose relying party is localhost on
 * that port (services/passkeys.ts relyingPartyFor).
 */
export const PASSKEY_TEST_ORIGIN = "http://localhost:8787";

/** Adds a passkey to the user's account through POST /api/passkeys/options and /api/passkeys (createUser's session is fresh). */
export async function enrolPasskey(user: TestUser): Promise<SoftwareAuthenticator> {
  const auth = await SoftwareAuthenticator.create(PASSKEY_TEST_ORIGIN);
  const ceremony = await api("/api/passkeys/options", { method: "POST", token: user.token });
  expect(ceremony.status).toBe(200);
  const added = await api("/api/passkeys", { token: user.token, json: { challenge_id: ceremony.data.challenge_id, name: "Test passkey", response: await auth.register(ceremony.data.options) } });
  expect(added.status).toBe(201);
  return auth;
}

/** The login page's passkey sign-in (discoverable: no e-mail). */
export async function signInWithPasskey(auth: SoftwareAuthenticator) {
  const ceremony = await api("/api/login/passkey/options", { method: "POST" });
  expect(ceremony.status).toBe(200);
  return api("/api/login/passkey/verify", { json: { challenge_id: ceremony.data.challenge_id, response: await auth.assert(ceremony.data.options) } });
}
