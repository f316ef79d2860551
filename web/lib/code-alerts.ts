import type { RealtimeMessage } from "../../schema/realtime";
import { hideCodeChosen, pushOnForThisSignIn } from "./push-flags";

/**
 * "Never miss a code" (issue 17): when a code or a rental SMS is pushed while this tab is hidden, a browser notification
 * (only with the customer's permission, asked right after a purchase or from Settings, never on page load), an
 * optional chime (a setting on this device), and the tab title counts the codes not yet seen: "(2) Receive SMS — ...".
 * Coming back to the tab clears the count. Kept tiny: it loads on the first pushed message, not with the shell.
 * Issue 47: a notification is tagged by its order as a Web Push's is (a tab's and a push's about one order replace each
 * other), keeps the code off the screen when the customer asked, and is left to the push when push is on here.
 */

const SOUND_KEY = "code-alert-sound";
const COUNT_PREFIX = /^\(\d+\) /;
let unseen = 0;
let listening = false;

const notificationApi = (): typeof Notification | null => (typeof Notification === "undefined" ? null : Notification);

export function notificationPermission(): NotificationPermission | "unsupported" {
  return notificationApi()?.permission ?? "unsupported";
}

/**
 * Asks for notification permission at a moment it helps (a number was just bought or rented, or the Settings button).
 * Asks only while the browser has not been answered yet: a "denied" is never asked again.
 */
export async function askCodeNotificationPermission(): Promise<NotificationPermission | "unsupported"> {
  const api = notificationApi();
  if (!api) return "unsupported";
  if (api.permission !== "default") return api.permission;
  try {
    return await api.requestPermission();
  } catch {
    return api.permission;
  }
}

export function codeSoundEnabled(): boolean {
  try {
    return localStorage.getItem(SOUND_KEY) === "on";
  } catch {
    return false;
  }
}

export function setCodeSoundEnabled(on: boolean): void {
  try {
    if (on) localStorage.setItem(SOUND_KEY, "on");
    else localStorage.removeItem(SOUND_KEY);
  } catch {
    // Storage refused (private mode): the chime simply stays off.
  }
}

/** Codes pushed while the tab was hidden and not yet seen. */
export function unseenCodeCount(): number {
  return unseen;
}

function showCount(): void {
  const base = document.title.replace(COUNT_PREFIX, "");
  document.title = unseen > 0 ? `(${unseen}) ${base}` : base;
}

function listenForReturn(): void {
  if (listening) return;
  listening = true;
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState !== "visible") return;
    unseen = 0;
    showCount();
  });
}

/** A short two-tone chime made on the spot (no audio file to fetch). */
export function playChime(): void {
  try {
    // eslint-disable-next-line no-restricted-syntax -- older Safari's prefixed constructor is not in the DOM types (not an API answer)
    const Ctx = window.AudioContext ?? (window as unknown as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
    if (!Ctx) return;
    const ctx = new Ctx();
    const gain = ctx.createGain();
    gain.connect(ctx.destination);
    gain.gain.setValueAtTime(0.15, ctx.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, ctx.currentTime + 0.5);
    [880, 1320].forEach((freq, i) => {
      const osc = ctx.createOscillator();
      osc.frequency.value = freq;
      osc.connect(gain);
      osc.start(ctx.currentTime + i * 0.15);
      osc.stop(ctx.currentTime + 0.5);
    });
    setTimeout(() => void ctx.close().catch(() => undefined), 800);
  } catch {
    // No audio here: the notification and the title still tell.
  }
}

/** What a pushed message should say, or null when it is not a new code / rental SMS. */
export function codeAlertFor(message: RealtimeMessage, hideCode = false): { title: string; body: string; tag: string } | null {
  if (message.kind === "sms.code") {
    const number = `+${message.number.replace(/^\+/, "")}`;
    return hideCode
      ? { title: "Your code arrived", body: `A code came for ${number}. Open the app to see it.`, tag: `sms:${message.orderId}` }
      : { title: `Code ${message.code}`, body: `Received on ${number}`, tag: `sms:${message.orderId}` };
  }
  if (message.kind === "rental.sms") {
    if (hideCode) return { title: `SMS from ${message.sender}`, body: "A message came to your rented number. Open the app to read it.", tag: `rental:${message.rentalId}` };
    const text = message.text.length > 120 ? `${message.text.slice(0, 117)}...` : message.text;
    return { title: message.code ? `Code ${message.code} from ${message.sender}` : `SMS from ${message.sender}`, body: text, tag: `rental:${message.rentalId}` };
  }
  return null;
}

/** Called for every pushed message: alerts only for a new code or rental SMS while the tab is hidden. */
export function alertIfHidden(message: RealtimeMessage): boolean {
  const alert = codeAlertFor(message, hideCodeChosen());
  if (!alert || document.visibilityState !== "hidden") return false;
  listenForReturn();
  unseen += 1;
  showCount();
  const api = notificationApi();
  // With push on for this browser the push shows it (with the customer's choices), wherever the tab is.
  if (api?.permission === "granted" && !pushOnForThisSignIn()) {
    try {
      const n = new api(alert.title, { body: alert.body, tag: alert.tag, icon: "/icons/icon-192.png" });
      n.onclick = () => {
        window.focus();
        n.close();
      };
    } catch {
      // Some mobile browsers allow notifications only from a service worker (push, Settings → Notifications): the title still counts.
    }
  }
  if (codeSoundEnabled()) playChime();
  return true;
}
