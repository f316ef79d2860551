import { runInDurableObject } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signToken } from "../../lib/jwt";
import { patchSandboxRental } from "../rent-fixtures";
import {
  createInvoiceViaApi,
  disarmInvoiceWatchers,
  postNowIpn,
  postSquadWebhook,
  setNowSimulator,
  setSquadSimulator,
  squadWebhookRaw,
  startCardPaymentViaApi,
} from "../payment-fixtures";
import { signNowPaymentsBody, signSquadBody } from "../../providers/payments/signatures";
import { clearSettingsCache, putSetting } from "../../services/kernel";
import { api, balanceOf, createUser, db, type TestUser } from "../helpers";
import { moneyViolations, setActivationCodeArrived, tableCounts, upstreamIdOf } from "./invariants";

/**
 * Access across accounts, tokens, and webhooks, on the money endpoints (the account endpoints' own token tests live in
 * worker/routes/accounts.security.test.ts). Another user's order, rental, payment, invoice, transaction or room is a 404,
 * indistinguishable from an id that does not exist.
 */

let owner: TestUser;
let intruder: TestUser;
const ids = { order: "", rental: "", cardRef: "", invoice: "" };

beforeAll(async () => {
  clearSettingsCache();
  await putSetting(db(), "sms_poll", { interval_ms: 3_600_000, max_attempts: 3 });
  clearSettingsCache();
  owner = await createUser({ balanceKobo: 2_000_000 });
  intruder = await createUser({ balanceKobo: 2_000_000 });
  const buy = await api("/api/sms/get-number", { token: owner.token, json: { provider: "Swift", country: "5", service: "wa" } });
  expect(buy.status).toBe(200);
  ids.order = buy.data.phone.request_id;
  await setActivationCodeArrived(await upstreamIdOf("sms_orders", ids.order), false);
  const rent = await api("/api/rent-number", { token: owner.token, json: { countryId: "5", duration: "hour", period: 1 } });
  expect(rent.status).toBe(201);
  ids.rental = rent.data.rental.id;
  await patchSandboxRental(env.DB, await upstreamIdOf("rentals", ids.rental), { firstSmsAt: Date.now() + 3_600_000 });
  ids.cardRef = await startCardPaymentViaApi(owner, 5000);
  ids.invoice = (await createInvoiceViaApi(owner, 10)).payment_id;
});

afterAll(async () => {
  await runInDurableObject(env.SMS_ORDER.get(env.SMS_ORDER.idFromName(ids.order)), (_i, s) => s.storage.deleteAlarm());
  await runInDurableObject(env.RENTAL.get(env.RENTAL.idFromName(ids.rental)), (_i, s) => s.storage.deleteAlarm());
  await disarmInvoiceWatchers();
});

describe("another user's resources are 404", () => {
  const attempts = () => [
    { label: "SMS order status", path: `/api/sms/status/${ids.order}`, method: "GET" },
    { label: "SMS order cancel", path: "/api/sms/cancel", json: { request_id: ids.order } },
    { label: "SMS refund state", path: "/api/refund-user", json: { request_id: ids.order } },
    { label: "rental", path: `/api/rentals/${ids.rental}`, method: "GET" },
    { label: "rental cancel", path: `/api/rentals/${ids.rental}/cancel`, method: "POST" },
    { label: "rental end", path: `/api/rentals/${ids.rental}/end`, method: "POST" },
    { label: "card payment callback", path: "/api/squad-callback", json: { transaction_ref: ids.cardRef } },
    { label: "card payment verify", path: "/api/verify-payment", json: { transaction_ref: ids.cardRef } },
    { label: "invoice status", path: `/api/now-status?payment_id=${ids.invoice}`, method: "GET" },
  ];

  it("every id answers exactly like one that does not exist, and nothing changes", async () => {
    await setSquadSimulator(ids.cardRef, { status: "Success" });
    const before = { counts: await tableCounts(), owner: await balanceOf(owner.id), intruder: await balanceOf(intruder.id) };
    for (const a of attempts()) {
      const theirs = await api(a.path, { method: a.method, token: intruder.token, json: a.json });
      expect(theirs.status, a.label).toBe(404);
      expect(theirs.data, a.label).toMatchObject({ code: "NOT_FOUND" });
      // The same call with an id nobody has: the same answer, so a 404 reveals nothing.
      const fake = JSON.parse(
        JSON.stringify({ path: a.path, json: a.json ?? null })
          .replaceAll(ids.order, crypto.randomUUID())
          .replaceAll(ids.rental, crypto.randomUUID())
          .replaceAll(ids.cardRef, "VN-NOPE-0000")
          .replaceAll(ids.invoice, "999999999"),
      );
      const none = await api(fake.path, { method: a.method, token: intruder.token, json: fake.json ?? undefined });
      expect(none.status, a.label).toBe(404);
      expect(none.data.message, a.label).toBe(theirs.data.message);
    }
    // The intruder's verify did not credit the owner's confirmed payment either (only the owner's own call may).
    expect(await tableCounts()).toEqual(before.counts);
    expect(await balanceOf(owner.id)).toBe(before.owner);
    expect(await balanceOf(intruder.id)).toBe(before.intruder);
  });

  it("lists never show another user's orders, rentals or transactions", async () => {
    const orders = await api("/api/orders", { token: intruder.token });
    const history = await api("/api/get-transaction", { token: intruder.token });
    const pending = await api("/api/payments/pending", { token: intruder.token });
    const everything = JSON.stringify([orders.data, history.data, pending.data]);
    for (const id of Object.values(ids)) expect(everything).not.toContain(id);
    expect(everything).not.toContain(owner.id);
  });

  it("another user's realtime room is 404, even with a valid realtime token of one's own", async () => {
    const token = (await api("/api/realtime-token", { token: intruder.token })).data.token as string;
    const res = await (exports as unknown as { default: Fetcher }).default.fetch(
      new Request(`http://127.0.0.1:8787/parties/notification-room/${owner.id}?token=${token}`, { headers: { Upgrade: "websocket" } }),
    );
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ code: "NOT_FOUND" });
  });
});

describe("tokens on the money endpoints", () => {
  const secret = () => new TextEncoder().encode(env.JWT_SECRET!);
  const b64 = (v: unknown) => btoa(JSON.stringify(v)).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
  const sid = (token: string) => JSON.parse(atob(token.split(".")[1].replaceAll("-", "+").replaceAll("_", "/"))).sid as string;

  async function forgedTokens(user: TestUser) {
    const claims = { sid: user.sessionId };
    const now = Math.floor(Date.now() / 1000);
    return {
      "alg none": `${b64({ alg: "none", typ: "JWT" })}.${b64({ ...claims, sub: user.id, iss: "virtual-numbers", aud: "api", exp: now + 3600 })}.`,
      "wrong key": await new SignJWT(claims).setProtectedHeader({ alg: "HS256" }).setSubject(user.id).setIssuer("virtual-numbers").setAudience("api").setExpirationTime("1h").sign(new TextEncoder().encode("another-secret-0123456789abcdef")),
      "wrong audience": await signToken(secret(), "realtime", { userId: user.id, sessionId: user.sessionId }),
      expired: await new SignJWT(claims).setProtectedHeader({ alg: "HS256" }).setSubject(user.id).setIssuer("virtual-numbers").setAudience("api").setIssuedAt(now - 7200).setExpirationTime(now - 60).sign(secret()),
      "someone else's subject": await signToken(secret(), "api", { userId: owner.id, sessionId: user.sessionId }),
      garbage: "eyJhbGciOiJIUzI1NiJ9.e30.x",
    };
  }

  const moneyCalls = () => [
    { path: "/api/user-balance" },
    { path: "/api/get-transaction" },
    { path: "/api/orders" },
    { path: "/api/sms/get-number", json: { provider: "Swift", country: "5", service: "wa" } },
    { path: "/api/rent-number", json: { countryId: "5", duration: "hour", period: 1 } },
    { path: "/api/initialize-transaction", json: { amount: 5000 } },
    { path: "/api/invoice", json: { price_amount: 10, pay_currency: "USDTTRC20" } },
    { path: "/api/verify-payment", json: { transaction_ref: ids.cardRef } },
    { path: "/api/realtime-token" },
  ];

  it("alg none, a wrong key, the realtime audience, an expired token, a swapped subject, garbage: 401 and nothing written", async () => {
    const victim = await createUser({ balanceKobo: 1_000_000 });
    const before = await tableCounts();
    for (const [label, token] of Object.entries(await forgedTokens(victim))) {
      for (const call of moneyCalls()) {
        const res = await api(call.path, { token, json: call.json });
        expect(res.status, `${label} on ${call.path}`).toBe(401);
        expect(res.data).toMatchObject({ code: "UNAUTHORIZED" });
      }
    }
    expect(await tableCounts()).toEqual(before);
    expect(await balanceOf(victim.id)).toBe(1_000_000);
  });

  it("a revoked session's token is 401 on every money call", async () => {
    const user = await createUser({ balanceKobo: 1_000_000 });
    expect((await api("/api/logout/", { method: "POST", token: user.token })).status).toBe(200);
    expect(sid(user.token)).toBe(user.sessionId);
    for (const call of moneyCalls()) {
      expect((await api(call.path, { token: user.token, json: call.json })).status, call.path).toBe(401);
    }
    expect(await balanceOf(user.id)).toBe(1_000_000);
  });
});

describe("webhooks: forged, tampered, replayed", () => {
  it("Squad: a forged or tampered webhook credits nothing; a replayed authentic one credits once", async () => {
    const user = await createUser();
    const ref = await startCardPaymentViaApi(user, 5000);
    await setSquadSimulator(ref, { status: "Success" });
    const raw = squadWebhookRaw(ref, 500_000, user.email);
    const signature = (await signSquadBody(env.SQUAD_SECRET_KEY!, raw)).toUpperCase();
    const tampered = raw.replace("500000", "50000000");
    expect((await postSquadWebhook(raw, null)).status).toBe(401);
    expect((await postSquadWebhook(raw, await signSquadBody("not-the-secret", raw))).status).toBe(401);
    expect((await postSquadWebhook(tampered, signature)).status).toBe(401);
    expect((await postSquadWebhook(`${raw} `, signature)).status).toBe(401);
    expect(await balanceOf(user.id)).toBe(0);
    const replays = await Promise.all(Array.from({ length: 5 }, () => postSquadWebhook(raw, signature.toLowerCase())));
    for (const r of replays) expect(r.status).toBe(200);
    expect(await balanceOf(user.id)).toBe(500_000);
  });

  it("Squad: an authentic webhook whose amount differs from the payment credits only what Squad's verify confirms", async () => {
    const user = await createUser();
    const ref = await startCardPaymentViaApi(user, 5000);
    await setSquadSimulator(ref, { status: "Success" });
    // Signed with the real secret but claiming a bigger amount: the body is only a trigger, verify decides.
    const res = await postSquadWebhook(squadWebhookRaw(ref, 99_900_000, user.email));
    expect(res.status).toBe(200);
    expect(await balanceOf(user.id)).toBe(500_000);
  });

  it("NOWPayments: forged and tampered IPNs are 401 and credit nothing; a replayed authentic 'finished' credits once", async () => {
    const user = await createUser();
    const invoice = await createInvoiceViaApi(user, 10);
    const body = { payment_id: invoice.payment_id, payment_status: "finished", order_id: null };
    expect((await postNowIpn(body, { signature: null })).status).toBe(401);
    expect((await postNowIpn(body, { signature: await signNowPaymentsBody("wrong-secret", body) })).status).toBe(401);
    const signed = await signNowPaymentsBody(env.NOWPAYMENTS_IPN_SECRET!, { ...body, payment_status: "waiting" });
    expect((await postNowIpn(body, { signature: signed })).status).toBe(401); // signature of another body
    expect(await balanceOf(user.id)).toBe(0);
    await setNowSimulator(invoice.payment_id, { payment_status: "finished", actually_paid: invoice.pay_amount });
    const replays = await Promise.all(Array.from({ length: 4 }, () => postNowIpn(body)));
    for (const r of replays) expect(r.status).toBe(200);
    const credited = await balanceOf(user.id);
    expect(credited).toBeGreaterThan(0);
    expect((await postNowIpn(body)).status).toBe(200);
    expect(await balanceOf(user.id)).toBe(credited);
    expect(await moneyViolations()).toEqual([]);
  });
});
