import type { PushDeviceView } from "../../schema/notifications";
import { addPushDevice, removePushDevice } from "../api/notifications";
export { rememberPushChoices } from "./push-flags";

/**
 * Web Push on this browser (issue 47): the service worker (/sw.js, web/sw/) is registered, the browser's permission
 * asked and the subscription made only when the customer taps "Turn on" in Settings → Notifications, never on load.
 * Loaded with that section (a lazy chunk): nothing of it is on the dashboard's first load.
 */

export type PushSupport = "supported" | "ios-home-screen" | "unsupported";

interface NavigatorLike {
  userAgent: string;
  platform?: string;
  maxTouchPoints?: number;
  serviceWorker?: unknown;
  standalone?: boolean;
}

/**
 * What this browser can do: push; or it is an iPhone or iPad where push needs the app added to the Home Screen (iOS
 * 16.4 and later: Safari gives a Home Screen web app, and only that, the Push API); or nothing.
 */
export function pushSupport(nav: NavigatorLike = navigator, win: { PushManager?: unknown; Notification?: unknown; matchMedia?: (q: string) => { matches: boolean } } = window): PushSupport {
  const ios = /iPhone|iPad|iPod/.test(nav.userAgent) || (nav.platform === "MacIntel" && (nav.maxTouchPoints ?? 0) > 1);
  const standalone = nav.standalone === true || Boolean(win.matchMedia?.("(display-mode: standalone)").matches);
  const push = Boolean(nav.serviceWorker) && "PushManager" in win && "Notification" in win;
  if (ios && (!standalone || !push)) return "ios-home-screen";
  return push ? "supported" : "unsupported";
}

export function notificationPermission(): NotificationPermission | "unsupported" {
  return typeof Notification === "undefined" ? "unsupported" : Notification.permission;
}

export function fromBase64Url(text: string): Uint8Array<ArrayBuffer> {
  const b64 = text.replaceAll("-", "+").replaceAll("_", "/");
  return Uint8Array.from(atob(b64 + "=".repeat((4 - (b64.length % 4)) % 4)), (c) => c.charCodeAt(0));
}

function sameKey(current: ArrayBuffer | null | undefined, publicKey: string): boolean {
  if (!current) return false;
  const a = new Uint8Array(current);
  const b = fromBase64Url(publicKey);
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

export type TurnOnResult = { device: PushDeviceView } | { refused: NotificationPermission | "unsupported" };

/**
 * The tap on "Turn on": the browser's permission (asked now, from the tap), the service worker, the subscription (one
 * made earlier with our key is kept), then the server. The worker is told which subscription it holds, so it can prove
 * it when the push service changes it.
 */
export async function turnPushOn(publicKey: string): Promise<TurnOnResult> {
  if (typeof Notification === "undefined" || !("serviceWorker" in navigator)) return { refused: "unsupported" };
  const permission = await Notification.requestPermission();
  if (permission !== "granted") return { refused: permission };
  await navigator.serviceWorker.register("/sw.js", { scope: "/" });
  const registration = await navigator.serviceWorker.ready;
  let subscription = await registration.pushManager.getSubscription();
  if (subscription && !sameKey(subscription.options.applicationServerKey, publicKey)) {
    await subscription.unsubscribe();
    subscription = null;
  }
  subscription ??= await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: fromBase64Url(publicKey) });
  const sent = subscription.toJSON();
  if (!sent.endpoint || !sent.keys?.p256dh || !sent.keys.auth) throw new Error("The browser gave no push subscription.");
  const device = await addPushDevice({ endpoint: sent.endpoint, expirationTime: sent.expirationTime ?? null, keys: { p256dh: sent.keys.p256dh, auth: sent.keys.auth } });
  registration.active?.postMessage({ type: "remember-subscription", subscription: { endpoint: sent.endpoint, auth: sent.keys.auth, applicationServerKey: publicKey } });
  return { device };
}

/** "Turn off on this device": the server forgets it, then the browser's subscription goes too. */
export async function turnPushOff(deviceId: string): Promise<PushDeviceView[]> {
  const { data } = await removePushDevice(deviceId);
  const registration = "serviceWorker" in navigator ? await navigator.serviceWorker.getRegistration("/") : undefined;
  await (await registration?.pushManager.getSubscription())?.unsubscribe();
  registration?.active?.postMessage({ type: "forget-subscription" });
  return data;
}
