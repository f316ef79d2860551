import { getToken } from "./session";

/**
 * What an open tab's code alerts (web/lib/code-alerts.ts) must know of Web Push (issue 47), kept in step with the
 * server's view by Settings → Notifications: whether push is on for this browser (then the push shows the
 * notification, with the customer's choices, and the tab does not show a second one), and the lock-screen choice.
 * Tiny and free of the API client: code alerts load it.
 */

/** What code alerts in an open tab read (web/lib/code-alerts.ts): push is on for this sign-in, and the lock-screen choice. */
const PUSH_ON_KEY = "push-on";
const HIDE_CODE_KEY = "code-alert-hide";

/** The sign-in this browser's push belongs to: a token's tail (a new sign-in is a new token). */
const signInMark = () => (getToken() ?? "").slice(-16);

/** Push is on for this browser under the current sign-in (a stale mark from an earlier sign-in does not count). */
export function pushOnForThisSignIn(): boolean {
  try {
    const mark = localStorage.getItem(PUSH_ON_KEY);
    return mark !== null && mark === signInMark() && mark !== "";
  } catch {
    return false;
  }
}

/** Keeps what an open tab's code alerts must know in step with the server's view (Settings reads it on each visit). */
export function rememberPushChoices(on: boolean, hideCode: boolean): void {
  try {
    if (on) localStorage.setItem(PUSH_ON_KEY, signInMark());
    else localStorage.removeItem(PUSH_ON_KEY);
    if (hideCode) localStorage.setItem(HIDE_CODE_KEY, "on");
    else localStorage.removeItem(HIDE_CODE_KEY);
  } catch {
    // Storage refused: tab alerts behave as before push (they still replace a push of the same order: one tag).
  }
}

/** The customer chose to keep codes off the lock screen (Settings → Notifications). */
export function hideCodeChosen(): boolean {
  try {
    return localStorage.getItem(HIDE_CODE_KEY) === "on";
  } catch {
    return false;
  }
}
