import type { BrowserContext, Page } from "@playwright/test";
import { serviceWorkerWeight } from "../bench/web-weight";
import { E2E_WEB_DIST } from "../playwright.config";
import type { PushNotificationPayload } from "../schema/notifications";
import { expect, openSignedIn, signUpAndFund, test } from "./support";

// Issue 47's journey: a code reaches a closed tab through Web Push. The customer turns push on in Settings →
// Notifications (the permission asked only from that tap), buys a number, closes the tab; the code arrives, the worker
// sends the push from the outbox through the sandbox push service (RFC 8030/8291/8292: it checks the VAPID JWT and
// decrypts the payload with the device's keys), which records the notification with the order's tag; its tap lands on
// the order with the code.
//
// What stands in for the browser here: a headless Chromium has no push service (Debian's Chromium has no Firebase Cloud
// Messaging sender, and subscribe() answers "push service not available"), so `pushManager.subscribe` is answered the
// way the sandbox push service's browser side answers it (POST /sandbox/web-push/devices: a fresh P-256 key pair and
// auth secret whose private half stays in the simulator) and the push goes to the simulator instead of FCM or Apple
// (decision 069). Everything from the tap on "Turn on" to the push on the wire is the product's own; the service
// worker's show and tap are its web units' (web/sw/push-actions.test.ts).

/** The sandbox push service's record of one device (GET /sandbox/web-push/devices.json). */
interface DeviceReport {
  id: string;
  endpoint: string;
  shown: Array<Pick<PushNotificationPayload, "title" | "body" | "tag" | "url"> & { kind: string; replaced: number }>;
  received: Array<{ status: number; problem: string | null; ttl: number | null; urgency: string | null; topic: string | null; tag: string | null }>;
}

/** Answers pushManager.subscribe/getSubscription from the sandbox push service, and counts permission asks. */
async function standInPushService(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const KEY = "journey-push-subscription";
    const b64u = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes)).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
    const fromB64u = (text: string) => Uint8Array.from(atob(text.replaceAll("-", "+").replaceAll("_", "/") + "=".repeat((4 - (text.length % 4)) % 4)), (c) => c.charCodeAt(0));
    type Stored = { endpoint: string; keys: { p256dh: string; auth: string }; key: string };
    const subscription = (s: Stored) => ({
      endpoint: s.endpoint,
      expirationTime: null,
      options: { userVisibleOnly: true, applicationServerKey: fromB64u(s.key).buffer },
      toJSON: () => ({ endpoint: s.endpoint, expirationTime: null, keys: s.keys }),
      unsubscribe: async () => {
        localStorage.removeItem(KEY);
        return true;
      },
    });
    const asBytes = (key: BufferSource) => (key instanceof ArrayBuffer ? new Uint8Array(key) : new Uint8Array(key.buffer, key.byteOffset, key.byteLength));
    const manager = PushManager.prototype as unknown as Record<string, unknown>;
    manager.subscribe = async (options: PushSubscriptionOptionsInit) => {
      const key = b64u(asBytes(options.applicationServerKey as BufferSource));
      const res = await fetch("/sandbox/web-push/devices", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ application_server_key: key, label: "Journey browser" }),
      });
      if (!res.ok) throw new DOMException("Registration failed - push service error", "AbortError");
      const made = (await res.json()) as Omit<Stored, "key">;
      const stored: Stored = { endpoint: made.endpoint, keys: made.keys, key };
      localStorage.setItem(KEY, JSON.stringify(stored));
      return subscription(stored);
    };
    manager.getSubscription = async () => {
      const stored = localStorage.getItem(KEY);
      return stored ? subscription(JSON.parse(stored) as Stored) : null;
    };
    // The journey asserts the permission is asked only from the tap: every ask is counted on the page.
    const ask = Notification.requestPermission.bind(Notification);
    const counted = window as unknown as { permissionAsks: number };
    counted.permissionAsks = 0;
    Notification.requestPermission = (async () => {
      counted.permissionAsks += 1;
      // A headless Chromium answers "denied" however the context is granted (its notifications are not displayable):
      // the grant below is the customer's "Allow", so the answer is the grant's.
      await ask();
      return (await navigator.permissions.query({ name: "notifications" })).state === "granted" ? "granted" : "denied";
    }) as typeof Notification.requestPermission;
  });
}

const permissionAsks = (page: Page) => page.evaluate(() => (window as unknown as { permissionAsks: number }).permissionAsks);

test("push on for this device: a code delivered to a closed tab is pushed with its order's tag, and its tap lands on the order with the code", async ({ context, page, request, baseURL }) => {
  await context.grantPermissions(["notifications"], { origin: baseURL });
  await standInPushService(context);
  const session = await signUpAndFund(request, "push", 5000);

  // Settings → Notifications: nothing is asked on load; the tap asks, subscribes and registers this device.
  await openSignedIn(page, session, "#/settings/1");
  const turnOn = page.getByRole("button", { name: "Turn on for this device" });
  await expect(turnOn).toBeVisible();
  await expect(page.getByTestId("push-status")).toHaveText("Push is off for this device.");
  expect(await permissionAsks(page)).toBe(0);
  await turnOn.click();
  await expect(page.getByTestId("push-status")).toHaveText("Push is on for this device.");
  expect(await permissionAsks(page)).toBe(1);
  const endpoint = await page.evaluate(() => (JSON.parse(localStorage.getItem("journey-push-subscription") ?? "{}") as { endpoint?: string }).endpoint ?? "");
  expect(endpoint).toMatch(/^https:\/\/web-push\.sandbox\.invalid\/push\/dev_/);
  // The service worker that will show it is the app's own, registered by the tap.
  await expect.poll(() => page.evaluate(async () => (await navigator.serviceWorker.getRegistration("/"))?.active?.scriptURL ?? "")).toMatch(/\/sw\.js$/);

  // Buy a number, then close the tab before its code arrives (the sandbox sends it 2.5 s after the purchase).
  await page.goto("/#/sms/1");
  const service = page.getByRole("combobox", { name: "Service" });
  await expect(service).toHaveText("Select a service");
  await service.click();
  await page.getByRole("searchbox", { name: "Search services..." }).fill("WhatsApp");
  await page.getByRole("option", { name: /^WhatsApp — ₦/ }).click();
  await expect(page.getByLabel("Stock")).not.toHaveValue("");
  const bought = page.waitForResponse((res) => new URL(res.url()).pathname === "/api/sms/get-number" && res.request().method() === "POST");
  await page.getByRole("button", { name: "Get Number" }).click();
  const purchase = (await (await bought).json()) as { phone: { request_id: string } };
  const orderId = purchase.phone.request_id;
  expect(orderId).toBeTruthy();
  await page.close();

  // The push service received it: VAPID and encryption checked (201), high urgency, a TTL, a Topic, the order's tag.
  const tag = `sms:${orderId}`;
  const device = async () => {
    const res = await request.get(`/sandbox/web-push/devices.json?device=${encodeURIComponent(endpoint)}`);
    return ((await res.json()) as { data: DeviceReport[] }).data[0];
  };
  await expect.poll(async () => (await device())?.shown.find((n) => n.tag === tag)?.title ?? "", { timeout: 45_000 }).toMatch(/^Code \d{6}$/);
  const report = await device();
  const shown = report.shown.find((n) => n.tag === tag)!;
  const code = /^Code (\d{6})$/.exec(shown.title)![1];
  expect(shown.kind).toBe("sms.code");
  expect(shown.url).toBe(`${baseURL}/#/sms/1?order=${orderId}`);
  // Once: one event, one device, one push.
  const sent = report.received.filter((r) => r.tag === tag);
  expect(sent).toHaveLength(1);
  expect(sent[0]).toMatchObject({ status: 201, problem: null, urgency: "high" });
  expect(sent[0].ttl).toBeGreaterThan(0);
  expect(sent[0].ttl).toBeLessThanOrEqual(30 * 60);
  expect(sent[0].topic).toMatch(/^[A-Za-z0-9_-]{1,32}$/);

  // The device's notification, tapped: the app opens on that order, marked, with its code.
  const phone = await context.newPage();
  await phone.goto(`/sandbox/web-push?device=${encodeURIComponent(endpoint)}`);
  const notification = phone.locator(`article[data-tag="${tag}"]`);
  await expect(notification.getByText(shown.title)).toBeVisible();
  await notification.getByRole("link", { name: /^Tap: open/ }).click();
  await expect(phone).toHaveURL(`${baseURL}/#/sms/1?order=${orderId}`);
  await expect(phone.getByRole("heading", { name: "Receive SMS" })).toBeVisible();
  const row = phone.locator(`[data-order-id="${orderId}"]:visible`);
  await expect(row).toHaveAttribute("aria-current", "true");
  await expect(row).toContainText(code);
});

test("the service worker is its own small file that caches nothing", async ({ request }) => {
  const sw = serviceWorkerWeight(E2E_WEB_DIST);
  expect(sw.events.sort()).toEqual(["activate", "install", "message", "notificationclick", "push", "pushsubscriptionchange"]);
  expect(sw.caches).toBe(false);
  expect(sw.gzip).toBeLessThanOrEqual(5_000);
  // Served as the build made it, always asked of the network, under its own policy.
  const res = await request.get("/sw.js");
  expect(res.status()).toBe(200);
  expect(res.headers()["cache-control"]).toBe("no-cache");
  expect(res.headers()["content-security-policy"]).toBe("default-src 'none'; connect-src 'self'; img-src 'self'");
});

test("rental forwarding by e-mail: turned on in Settings, a rented number's message reaches the account's address once, with its sender, text and code", async ({ page, request }) => {
  const session = await signUpAndFund(request, "forward", 5000);
  const auth = { authorization: `Bearer ${session.token}` };
  await openSignedIn(page, session, "#/settings/1");
  const byEmail = page.getByRole("checkbox", { name: /E-mail each message, with its sender, full text and code/ });
  await expect(byEmail).not.toBeChecked();
  // The box shows the server's answer (it is checked once the choice is saved).
  await byEmail.click();
  await expect(byEmail).toBeChecked();

  // Rent a number; the sandbox sends its first SMS a moment later.
  const quote = (await (await request.post("/api/rent/countries", { headers: auth, data: { countryId: "5", duration: "hour", period: "1" } })).json()) as { price: number };
  const rented = await request.post("/api/rent-number", { headers: auth, data: { countryId: "5", duration: "hour", period: "1", price: quote.price } });
  expect(rented.status()).toBe(201);
  const { rental, number } = (await rented.json()) as { rental: { id: string }; number: string };

  // A rental's link (a push's tap) opens its inbox; the message arrives there, and the rental follows the default.
  await page.goto(`/#/number/1?rental=${rental.id}`);
  const inbox = page.getByTestId("rental-inbox");
  const message = inbox.getByTestId("rental-messages").getByRole("listitem").first();
  await expect(message).toBeVisible({ timeout: 45_000 });
  const code = /code is (\d+)/.exec((await message.textContent()) ?? "")?.[1] ?? "";
  expect(code).toMatch(/^\d+$/);
  await inbox.getByText("Forward this number's messages").click();
  await expect(inbox.getByText("This number follows your default in Settings → Notifications.")).toBeVisible();
  await expect(inbox.getByRole("checkbox", { name: "E-mail each message to my account's address" })).toBeChecked();

  const forwarded = async () => {
    const res = await request.get(`/sandbox/outbox.json?to=${encodeURIComponent(session.user.userEmail)}`);
    return ((await res.json()) as { data: { subject: string; body: string }[] }).data.filter((m) => m.subject.startsWith(`Code ${code} from `));
  };
  await expect.poll(async () => (await forwarded()).length, { timeout: 30_000 }).toBe(1);
  const [mail] = await forwarded();
  expect(mail.subject).toContain(`+${number.replace(/^\+/, "")}`);
  expect(mail.body).toContain("From: ");
  expect(mail.body).toContain(`Code: ${code}`);
  expect(mail.body).toContain(`/#/number/1?rental=${rental.id}`);
  // Once: the inbox read the message again meanwhile (it polls), and the outbox still holds one e-mail.
  await page.reload();
  await expect(inbox.getByTestId("rental-messages").getByRole("listitem").first()).toBeVisible();
  expect(await forwarded()).toHaveLength(1);
});
