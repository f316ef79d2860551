import { describe, expect, it, vi } from "vitest";
import { notificationFor, openFromNotification, renewSubscription, type WindowClientLike } from "./push-actions";

const APP = "https://app.example.ng/#/dashboard/1";
const ORDER = "https://app.example.ng/#/sms/1?order=ord_1";

describe("the service worker's notification for a push", () => {
  it("shows the title and body the server wrote, tagged by order so a second push replaces the first, opening the order", () => {
    const shown = notificationFor(
      JSON.stringify({ v: 1, kind: "sms.code", title: "Code 482913", body: "WhatsApp · +234 801 234 5678", tag: "sms:ord_1", url: ORDER, at: "2026-05-01T10:00:00.000Z" }),
      APP,
    );
    expect(shown.title).toBe("Code 482913");
    expect(shown.options).toMatchObject({
      body: "WhatsApp · +234 801 234 5678",
      tag: "sms:ord_1",
      renotify: true,
      icon: "/icons/icon-192.png",
      timestamp: Date.parse("2026-05-01T10:00:00.000Z"),
      data: { url: ORDER },
    });
  });

  it("still shows something (browsers require it) for a payload it cannot read, and opens the app", () => {
    for (const data of [null, "not json", "{}"]) {
      const shown = notificationFor(data, APP);
      expect(shown.title).toBe("VirtualNum");
      expect(shown.options.body).toBe("Something new arrived in your account.");
      expect(shown.options.data).toEqual({ url: APP });
      expect(shown.options.tag).toBeUndefined();
    }
  });

  it("never opens a link that is not http(s)", () => {
    expect(notificationFor(JSON.stringify({ title: "x", url: "javascript:alert(1)" }), APP).options.data).toEqual({ url: APP });
  });
});

function tab(url: string, navigate: WindowClientLike["navigate"] = vi.fn(async () => undefined)): WindowClientLike & { focus: ReturnType<typeof vi.fn> } {
  return { url, focus: vi.fn(async () => undefined), navigate };
}

describe("a tap on the notification", () => {
  it("focuses an open tab of the app and takes it to the order", async () => {
    const open = tab("https://app.example.ng/#/dashboard/1");
    const clients = { matchAll: vi.fn(async () => [tab("https://elsewhere.example/"), open]), openWindow: vi.fn() };
    expect(await openFromNotification(clients, ORDER)).toBe("focused");
    expect(open.focus).toHaveBeenCalled();
    expect(open.navigate).toHaveBeenCalledWith(ORDER);
    expect(clients.openWindow).not.toHaveBeenCalled();
  });

  it("opens a new tab on the order when none of the app's is open, or when the open one cannot be steered", async () => {
    const none = { matchAll: vi.fn(async () => [tab("https://elsewhere.example/")]), openWindow: vi.fn(async () => undefined) };
    expect(await openFromNotification(none, ORDER)).toBe("opened");
    expect(none.openWindow).toHaveBeenCalledWith(ORDER);
    const stuck = tab("https://app.example.ng/#/settings/1", vi.fn(async () => Promise.reject(new TypeError("not controlled"))));
    const clients = { matchAll: vi.fn(async () => [stuck]), openWindow: vi.fn(async () => undefined) };
    expect(await openFromNotification(clients, ORDER)).toBe("opened");
    expect(clients.openWindow).toHaveBeenCalledWith(ORDER);
  });
});

describe("pushsubscriptionchange", () => {
  const KEY = "BFren02dVxiX7Ij1izMIPzZ6_cXf4_OatHZ4xgQbP4mi3i6Vc3T_OztuPFZ6VBb_3miUoH8UFnwwEJvJlSbt2BI";
  const fresh = { toJSON: () => ({ endpoint: "https://push.example/new", expirationTime: null, keys: { p256dh: "Bnew", auth: "newauth" } }) };

  it("subscribes again with the same key and proves itself with the old subscription's endpoint and auth secret", async () => {
    const subscribe = vi.fn(async () => fresh);
    const post = vi.fn(async () => ({ ok: true }));
    const next = await renewSubscription({
      remembered: { endpoint: "https://push.example/old", auth: "oldauth", applicationServerKey: KEY },
      oldSubscription: null,
      newSubscription: null,
      pushManager: { subscribe },
      post,
    });
    const options = (subscribe.mock.calls[0] as unknown as [{ userVisibleOnly: boolean; applicationServerKey: Uint8Array }])[0];
    expect(options.userVisibleOnly).toBe(true);
    expect(options.applicationServerKey.length).toBe(65);
    expect(post).toHaveBeenCalledWith("/api/notifications/devices/renew", { old_endpoint: "https://push.example/old", old_auth: "oldauth", subscription: fresh.toJSON() });
    expect(next).toEqual({ endpoint: "https://push.example/new", auth: "newauth", applicationServerKey: KEY });
  });

  it("uses the browser's own new subscription when it gives one, and remembers nothing the server refused", async () => {
    const subscribe = vi.fn();
    const next = await renewSubscription({
      remembered: { endpoint: "https://push.example/old", auth: "oldauth", applicationServerKey: KEY },
      oldSubscription: { endpoint: "https://push.example/old2", toJSON: () => ({ endpoint: "https://push.example/old2", keys: { auth: "old2auth" } }) },
      newSubscription: fresh,
      pushManager: { subscribe },
      post: async () => ({ ok: false }),
    });
    expect(subscribe).not.toHaveBeenCalled();
    expect(next).toBeNull();
  });

  it("does nothing when push was never turned on from this browser", async () => {
    const post = vi.fn();
    expect(await renewSubscription({ remembered: null, oldSubscription: null, newSubscription: null, pushManager: { subscribe: vi.fn() }, post })).toBeNull();
    expect(post).not.toHaveBeenCalled();
  });
});
