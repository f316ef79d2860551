import { E2E_ALONE_BASE_URL, E2E_BASE_URL } from "../playwright.config";
import { JOURNEY_SMS_POLL } from "./support";

/**
 * Once, with the journeys' server up (Playwright starts its webServer before this): SMS polling every second for up to
 * 60 s (JOURNEY_SMS_POLL), so a code shows within 1 s of arriving instead of production's 6 s, and a number that never
 * gets one waits long enough for any journey, run beside another on a loaded machine, to act on it first.
 */
export default async function globalSetup(): Promise<void> {
  // Both servers: the journeys' and the ALONE journeys' own (playwright.config.ts).
  for (const base of [E2E_BASE_URL, E2E_ALONE_BASE_URL]) {
    const res = await fetch(`${base}/sandbox/settings/sms_poll`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(JOURNEY_SMS_POLL),
    });
    if (!res.ok) throw new Error(`the journeys' SMS polling could not be set at ${base}: ${res.status} ${await res.text()}`);
  }
}
