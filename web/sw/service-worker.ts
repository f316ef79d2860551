/// <reference lib="webworker" />
import { notificationFor, openFromNotification, renewSubscription, type RememberedSubscription } from "./push-actions";

/**
 * The app's service worker (issue 47, decision 069): /sw.js, scope "/", built from this file by web/vite.config.ts
 * (serviceWorkerBuild) with the build's id inside, so every deploy is a new worker that takes over at once. It exists
 * for Web Push only: it shows a notification for each push, opens the order a tap is about, and renews the
 * subscription when the push service changes it. It has no fetch handler and caches nothing: every screen, money
 * screens first, always comes from the network.
 */
declare const self: ServiceWorkerGlobalScope;
declare const __BUILD_ID__: string;

/** The build this worker came with (the app asks it: web/lib/push-device.ts, and the journey checks it). */
const BUILD_ID = __BUILD_ID__;

self.addEventListener("install", () => void self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

self.addEventListener("push", (event) => {
  const shown = notificationFor(event.data ? event.data.text() : null, new URL("/#/dashboard/1", self.location.origin).href);
  event.waitUntil(self.registration.showNotification(shown.title, shown.options));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = (event.notification.data as { url?: string } | null)?.url ?? new URL("/#/dashboard/1", self.location.origin).href;
  event.waitUntil(openFromNotification(self.clients, url));
});

// Not in every lib.dom version yet: the event's two subscriptions (https://w3c.github.io/push-api/#pushsubscriptionchange-event).
interface SubscriptionChangeEvent extends ExtendableEvent {
  readonly oldSubscription: PushSubscription | null;
  readonly newSubscription: PushSubscription | null;
}

self.addEventListener("pushsubscriptionchange", (event) => {
  const change = event as SubscriptionChangeEvent;
  change.waitUntil(
    (async () => {
      const next = await renewSubscription({
        remembered: await remembered(),
        oldSubscription: change.oldSubscription,
        newSubscription: change.newSubscription,
        pushManager: self.registration.pushManager,
        post: (path, body) => fetch(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
      });
      if (next) await remember(next);
    })(),
  );
});

// The app tells the worker which subscription it registered (web/lib/push-device.ts), so a later renewal can prove it.
self.addEventListener("message", (event) => {
  const data = event.data as { type?: string; subscription?: RememberedSubscription } | null;
  if (data?.type === "remember-subscription" && data.subscription) event.waitUntil(remember(data.subscription));
  if (data?.type === "forget-subscription") event.waitUntil(remember(null));
  if (data?.type === "version") event.source?.postMessage({ type: "version", version: BUILD_ID });
});

// One IndexedDB record: the subscription to prove at renewal. (The Cache API would do, but it is for responses.)
function store<T>(mode: IDBTransactionMode, run: (s: IDBObjectStore) => IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    const open = indexedDB.open("push", 1);
    open.onupgradeneeded = () => open.result.createObjectStore("kv");
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const req = run(open.result.transaction("kv", mode).objectStore("kv"));
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
    };
  });
}

const remembered = () => store<RememberedSubscription | undefined>("readonly", (s) => s.get("subscription")).then((v) => v ?? null, () => null);
const remember = (value: RememberedSubscription | null) =>
  (value ? store("readwrite", (s) => s.put(value, "subscription")) : store("readwrite", (s) => s.delete("subscription"))).then(
    () => undefined,
    () => undefined,
  );
