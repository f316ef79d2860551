import { axeProblems } from "./axe";
import { expect, test, signInBrowser, signUpViaApi } from "./support";
import { E2E_PORT } from "../playwright.config";

// Issue 33 (decision 034): a passkey added in Settings signs the customer in from the login page, through Chromium's
// own WebAuthn stack with a virtual authenticator (CDP WebAuthn domain: a platform authenticator holding discoverable
// credentials and verifying its user, as a phone's or laptop's screen lock does). An IP address cannot be a relying
// party ID, so the page is opened on localhost, the RP ID the server derives from PUBLIC_URL=http://127.0.0.1:<port>.
const ORIGIN = `http://localhost:${E2E_PORT}`;

test("add a passkey in Settings, sign out, and sign in with it from the login page", async ({ page, request }) => {
  const session = await signUpViaApi(request, "passkey");
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: { protocol: "ctap2", transport: "internal", hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });

  await signInBrowser(page, session, { dashboardTourCompleted: "true" });
  await page.goto(`${ORIGIN}/#/settings/1`);
  await page.getByLabel("Name for the new passkey (optional)").fill("Test laptop");
  await page.getByRole("button", { name: "Add a passkey" }).click();
  const list = page.getByRole("list", { name: "Your passkeys" });
  await expect(list.getByText("Test laptop")).toBeVisible();
  await expect(list.getByText(/not used yet/)).toBeVisible();
  // The confirmation offers to sign out everywhere (ASVS 7.4.3).
  await expect(page.getByRole("button", { name: "Sign out everywhere" }).first()).toBeVisible();
  const { credentials } = await cdp.send("WebAuthn.getCredentials", { authenticatorId });
  expect(credentials).toHaveLength(1);
  expect(credentials[0].isResidentCredential).toBe(true);
  expect(await axeProblems(page, "Settings with a passkey")).toEqual([]);

  await page.getByRole("button", { name: "Log out" }).click();
  await expect(page).toHaveURL(/#\/homepage\/1/);
  await page.goto(`${ORIGIN}/#/login/1`);
  await page.getByRole("button", { name: "Sign in with a passkey" }).click();
  await expect(page).toHaveURL(/#\/dashboard\/1/);
  await expect(page.getByTestId("balance-amount")).toBeVisible();

  // The new session is the passkey's: Settings shows it used, with no password or code typed.
  await page.goto(`${ORIGIN}/#/settings/1`);
  await expect(page.getByRole("list", { name: "Your passkeys" }).getByText(/last used/)).toBeVisible();
});
