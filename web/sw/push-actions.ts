import type { PushNotificationPayload } from "../../schema/notifications";

/**
 * What the service worker does (issue 47), as functions over the few members of the worker's globals they use, so the
 * web units test them without a browser (push-actions.test.ts) and service-worker.ts only wires the events. The worker
 * decides every word a notification says (with the code hidden when the customer asked): this file shows it as sent.
 */

const ICON = "/icons/icon-192.png";

export interface ShownNotification {
  title: string;
  options: NotificationOptions & { renotify?: boolean; timestamp?: number };
}

/**
 * A push's notification. Every push must show one (browsers enforce userVisibleOnly), so a payload this build cannot
 * read still says something arrived and opens the app.
 */
export function notificationFor(data: string | null, appUrl: string): ShownNotification {
  let payload: Partial<PushNotificationPayload> = {};
  try {
    payload = data ? (JSON.parse(data) as Partial<PushNotificationPayload>) : {};
  } catch {
    payload = {};
  }
  const title = typeof payload.title === "string" && payload.title ? payload.title : "VirtualNum";
  const tag = typeof payload.tag === "string" && payload.tag ? payload.tag : undefined;
  const at = typeof payload.at === "string" ? Date.parse(payload.at) : NaN;
  return {
    title,
    options: {
      body: typeof payload.body === "string" ? payload.body : "Something new arrived in your account.",
      icon: ICON,
      badge: ICON,
      // One notification per order: a second push with the same tag replaces it, and renotify makes it sound again.
      ...(tag ? { tag, renotify: true } : {}),
      ...(Number.isFinite(at) ? { timestamp: at } : {}),
      data: { url: safeUrl(payload.url, appUrl) },
    },
  };
}

/** Only our own links open from a notification: anything else opens the app's start. */
function safeUrl(url: unknown, appUrl: string): string {
  if (typeof url !== "string") return appUrl;
  try {
    const parsed = new URL(url);
    return parsed.protocol === "https:" || parsed.protocol === "http:" ? parsed.href : appUrl;
  } catch {
    return appUrl;
  }
}

export interface WindowClientLike {
  url: string;
  focus(): Promise<unknown>;
  navigate(url: string): Promise<unknown>;
}

export interface ClientsLike {
  matchAll(options: { type: "window"; includeUncontrolled: boolean }): Promise<ReadonlyArray<WindowClientLike>>;
  openWindow(url: string): Promise<unknown>;
}

/**
 * A tap: focus a tab of the app already open (on the order's page), or open one there. A tab on another origin is not
 * ours to steer. Navigating a tab this worker does not control fails: then a new one opens.
 */
export async function openFromNotification(clients: ClientsLike, url: string): Promise<"focused" | "opened"> {
  const origin = new URL(url).origin;
  const tabs = await clients.matchAll({ type: "window", includeUncontrolled: true });
  const tab = tabs.find((t) => new URL(t.url).origin === origin);
  if (tab) {
    try {
      await tab.focus();
      if (tab.url !== url) await tab.navigate(url);
      return "focused";
    } catch {
      // fall through to a new tab
    }
  }
  await clients.openWindow(url);
  return "opened";
}

/** What the worker keeps of the subscription the app registered, to prove it is the same browser at renewal. */
export interface RememberedSubscription {
  endpoint: string;
  auth: string;
  /** The VAPID public key (base64url) it was made with: a renewal subscribes with the same. */
  applicationServerKey: string;
}

export interface PushManagerLike {
  subscribe(options: { userVisibleOnly: boolean; applicationServerKey: BufferSource }): Promise<{ toJSON(): PushSubscriptionJSON }>;
}

export function fromBase64Url(text: string): Uint8Array<ArrayBuffer> {
  const b64 = text.replaceAll("-", "+").replaceAll("_", "/");
  return Uint8Array.from(atob(b64 + "=".repeat((4 - (b64.length % 4)) % 4)), (c) => c.charCodeAt(0));
}

/**
 * `pushsubscriptionchange`: the push service replaced or dropped the subscription. The worker subscribes again with the
 * same key (unless the browser already did: newSubscription), then tells the server, proving itself with the old
 * subscription's endpoint and auth secret (it holds no session token). Returns what to remember next, or null.
 */
export async function renewSubscription(deps: {
  remembered: RememberedSubscription | null;
  oldSubscription: { endpoint: string; toJSON(): PushSubscriptionJSON } | null;
  newSubscription: { toJSON(): PushSubscriptionJSON } | null;
  pushManager: PushManagerLike;
  post: (path: string, body: unknown) => Promise<{ ok: boolean }>;
}): Promise<RememberedSubscription | null> {
  const old = deps.oldSubscription ? { endpoint: deps.oldSubscription.endpoint, auth: deps.oldSubscription.toJSON().keys?.auth ?? "" } : deps.remembered;
  if (!old || !old.auth || !deps.remembered?.applicationServerKey) return null;
  const fresh =
    deps.newSubscription ?? (await deps.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: fromBase64Url(deps.remembered.applicationServerKey) }));
  const json = fresh.toJSON();
  const res = await deps.post("/api/notifications/devices/renew", { old_endpoint: old.endpoint, old_auth: old.auth, subscription: json });
  if (!res.ok || !json.endpoint || !json.keys?.auth) return null;
  return { endpoint: json.endpoint, auth: json.keys.auth, applicationServerKey: deps.remembered.applicationServerKey };
}
