import { log } from "../../lib/log";
import type { EmailMessage } from "../../providers/email/email-sender";
import type { RequestDeps } from "../kernel";
import { formatDateTime } from "../../../schema/datetime";

/**
 * The account e-mails of issue 12: the address confirmation, the reset link and the security notices (a sign-in from a new device, a
 * password change, two-factor turned on or off). Links come from the caller, which builds them from the configured origin (Config.publicUrl, never the Host header).
 */

export interface Recipient {
  email: string;
  username: string;
}

/**
 * Account e-mails never hold up the answer through the mail upstream: with Resend they are sent in the background
 * (waitUntil) and a delivery failure is logged, never shown. The local outbox (sandbox) is one D1 insert and is stored
 * before the answer, like the reset mail, so the outbox's order is the order things happened in. The log names the
 * kind of mail only, never its content.
 */
export async function sendAccountEmail(deps: RequestDeps, message: EmailMessage, kind: string): Promise<void> {
  const sending = deliverAccountEmail(deps, message, kind);
  if (deps.upstreams.email().sendInBackground) deps.defer(sending);
  else await sending;
}

/** The same, for work already running in the background (it never rejects). */
export async function deliverAccountEmail(deps: RequestDeps, message: EmailMessage, kind: string): Promise<void> {
  const sender = deps.upstreams.email();
  await sender.send(message).catch((err: unknown) => {
    log("error", "account e-mail not delivered", { rid: deps.requestId, kind, sender: sender.name, reason: err instanceof Error ? err.message : "unknown" });
  });
}

export function verificationEmail(to: Recipient, link: string): EmailMessage {
  return mail(to, "Confirm your e-mail address", [
    "Please confirm that this is your e-mail address by opening this link:",
    link,
    "",
    "The link works once and expires in 24 hours. If you did not create an account, ignore this e-mail.",
  ]);
}

export function newSignInEmail(to: Recipient, device: { label: string; place: string | null; at: number }): EmailMessage {
  return mail(to, "New sign-in to your account", [
    `Your account was just signed in to from a device we have not seen before: ${device.label}${device.place ? `, near ${device.place}` : ""}, at ${formatDateTime(device.at, { year: "always" })}.`,
    "",
    "If this was you, there is nothing to do. If not, change your password now and use Settings > Signed-in devices to sign that device out.",
  ]);
}

/** The reset link (POST /api/forgot-password): single use, one hour (services/password-reset.ts). */
export function passwordResetEmail(to: Recipient, link: string): EmailMessage {
  return mail(to, "Reset your password", [
    "We received a request to reset the password of your account. Open this link to choose a new password:",
    link,
    "",
    "The link works once and expires in 1 hour. If you did not ask for it, ignore this e-mail: your password stays as it is.",
  ]);
}

export function passwordChangedEmail(to: Recipient, how: "changed" | "reset"): EmailMessage {
  return mail(to, "Your password was changed", [
    how === "changed"
      ? "The password of your account was just changed from Settings. Your other devices were signed out."
      : "The password of your account was just reset with an e-mailed link. Every device was signed out.",
    "",
    "If this was not you, reset your password at once with 'Forgot password?' on the login page and contact support.",
  ]);
}

export function twoFactorEmail(to: Recipient, enabled: boolean): EmailMessage {
  return enabled
    ? mail(to, "Two-factor sign-in is on", [
        "Two-factor sign-in was just turned on for your account: signing in now also asks for a code from your authenticator app.",
        "",
        "If this was not you, reset your password at once and contact support.",
      ])
    : mail(to, "Two-factor sign-in is off", [
        "Two-factor sign-in was just turned off for your account: signing in now asks for your password only.",
        "",
        "If this was not you, reset your password at once, turn two-factor sign-in back on and contact support.",
      ]);
}

/** A passkey added or removed (issue 33): a change to how the account signs in, told to the address like 2FA on/off. */
export function passkeyEmail(to: Recipient, change: "added" | "removed", name: string): EmailMessage {
  return change === "added"
    ? mail(to, "A passkey was added to your account", [
        `A passkey named "${name}" was just added to your account: it can now sign in without your password.`,
        "",
        "If this was not you, remove it in Settings → Passkeys, reset your password at once and contact support.",
      ])
    : mail(to, "A passkey was removed from your account", [
        `The passkey named "${name}" was just removed from your account and can no longer sign in.`,
        "",
        "If this was not you, reset your password at once and contact support.",
      ]);
}

/**
 * Issue 45: a key given or denied the withdraw scope. Granting it lets whoever holds the key send the wallet's money to
 * the payout account without a session, so the address hears of it like a new passkey; removing it is told too.
 */
export function keyWithdrawScopeEmail(to: Recipient, change: "granted" | "removed", keyName: string): EmailMessage {
  return change === "granted"
    ? mail(to, "An API key can now withdraw money", [
        `A key can now withdraw money from your wallet: the API key named "${keyName}" was just given the withdraw scope. It can send your balance to your payout bank account without signing in.`,
        "",
        "If this was not you, revoke the key in Settings → API, reset your password at once and contact support.",
      ])
    : mail(to, "An API key can no longer withdraw money", [
        `The API key named "${keyName}" can no longer withdraw money from your wallet: its withdraw scope was just removed.`,
        "",
        "If this was not you, reset your password at once and contact support.",
      ]);
}

/** The rental reminder (issue 17): sent once, about an hour before a rented number stops receiving SMS. */
export function rentalEndingEmail(to: Recipient, rental: { number: string; country: string; expiresAt: number; link: string | null }): EmailMessage {
  return mail(to, `Your rented number +${rental.number} ends in about an hour`, [
    `Your rented ${rental.country} number +${rental.number} stops receiving SMS at ${formatDateTime(rental.expiresAt, { year: "always" })}.`,
    "Copy any code you still need before then. Once a rental ends, the number cannot be taken back.",
    ...(rental.link ? ["", "Open your rentals:", rental.link] : []),
  ]);
}

/** Issue 28: support decided on a deposit held for review (credited or refused); the sentence is the history's. */
export function depositReviewedEmail(to: Recipient, credited: boolean, sentence: string, link: string): EmailMessage {
  return mail(to, credited ? "Your deposit was checked and credited" : "Your deposit was checked and not credited", [
    sentence,
    "",
    "Your wallet history shows it too:",
    link,
  ]);
}

function mail(to: Recipient, subject: string, lines: string[]): EmailMessage {
  const text = [`Hello ${to.username},`, "", ...lines].join("\n");
  const html = [`<p>Hello ${escapeHtml(to.username)},</p>`, ...lines.filter(Boolean).map((l) => `<p>${linkify(escapeHtml(l))}</p>`)].join("");
  return { to: to.email, subject, text, html };
}

function linkify(escaped: string): string {
  return /^https?:\/\/\S+$/.test(escaped) ? `<a href="${escaped}">${escaped}</a>` : escaped;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

/**
 * An operator's message to a group of customers (console, Messages page), in the same envelope as the account e-mails,
 * ending with the customer's own unsubscribe link (services/operator-mail.ts): a click stops every later group e-mail.
 */
export function operatorEmail(to: Recipient, subject: string, body: string, unsubscribeLink: string): EmailMessage {
  return mail(to, subject, [...body.split("\n"), "", "You receive this because you have an account with us. To stop these e-mails:", unsubscribeLink]);
}

/** Auto-renew (issue 32): the 24-hour and 1-hour notices before a renewal, with what to do when the wallet is short. */
export function rentalRenewingEmail(
  to: Recipient,
  r: { number: string; country: string; renewsAt: number; expiresAt: number; price: string; shortBy: string | null; inWords: string; link: string | null },
): EmailMessage {
  return mail(to, `Your rented number +${r.number} renews ${r.inWords}`, [
    `Your rented ${r.country} number +${r.number} renews ${r.inWords} (${formatDateTime(r.renewsAt, { year: "always" })}) for ${r.price}, the price you agreed when you turned on auto-renew.`,
    r.shortBy
      ? `Your wallet is ${r.shortBy} short of that. Fund your wallet before then, or the number ends at ${formatDateTime(r.expiresAt, { year: "always" })} and cannot be taken back.`
      : "Your wallet holds enough. Nothing to do: you can turn auto-renew off on the rental before then.",
    ...(r.link ? ["", "Open your rentals:", r.link] : []),
  ]);
}

/** Auto-renew paused: the renewal was not charged (a higher price, a short wallet, or the provider refused). */
export function rentalRenewalPausedEmail(to: Recipient, r: { number: string; sentence: string; link: string | null }): EmailMessage {
  return mail(to, `Your rented number +${r.number} was not renewed`, [r.sentence, ...(r.link ? ["", "Open your rentals:", r.link] : [])]);
}
