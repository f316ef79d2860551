import { env } from "cloudflare:workers";
import { runDurableObjectAlarm } from "cloudflare:test";
import { api, createUser, type TestUser } from "./helpers";
import { pollerOf } from "./sms-fixtures";

/** A developer key created the way the Settings "API" section creates one; returns the secret (shown once). */
export async function createKey(user: TestUser, mode: "test" | "live" = "live", name = `${mode} key`): Promise<{ id: string; secret: string; webhookSecret: string }> {
  const res = await api("/api/keys", { token: user.token, json: { name, mode } });
  if (res.status !== 201) throw new Error(`key not created: ${res.status} ${JSON.stringify(res.data)}`);
  return { id: res.data.id, secret: res.data.secret, webhookSecret: res.data.webhook_secret };
}

/** One call of the SMS-Activate protocol, as a GET with the parameters in the query string. */
export async function handler(params: Record<string, string | number>): Promise<{ status: number; text: string; json: unknown }> {
  const q = new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)]));
  const res = await api(`/stubs/handler_api.php?${q}`);
  const text = typeof res.data === "string" ? res.data : JSON.stringify(res.data);
  return { status: res.status, text, json: res.data };
}

/** The order behind a protocol activation id. */
export async function orderIdOfActivation(activationId: string | number): Promise<string> {
  const row = await env.DB.prepare("SELECT order_id FROM api_activations WHERE id = ?").bind(Number(activationId)).first<{ order_id: string }>();
  if (!row) throw new Error(`no activation ${activationId}`);
  return row.order_id;
}

/** Runs the order's poller once (tests set a long interval so alarms never fire on their own). */
export async function pollOnce(orderId: string): Promise<boolean> {
  return runDurableObjectAlarm(pollerOf(orderId));
}

/** A developer key's headers: its bearer secret, and any extra (an `X-Subaccount`). */
export const keyAuth = (secret: string, extra: Record<string, string> = {}) => ({ authorization: `Bearer ${secret}`, ...extra });
/** A POST with a developer key, under a fresh Idempotency-Key unless one is given (to replay a request). */
export const postWithKey = (path: string, secret: string, json: unknown, extra: Record<string, string> = {}, idempotencyKey: string = crypto.randomUUID()) =>
  api(path, { method: "POST", headers: keyAuth(secret, { "idempotency-key": idempotencyKey, ...extra }), json });
export const getWithKey = (path: string, secret: string, extra: Record<string, string> = {}) => api(path, { headers: keyAuth(secret, extra) });
export const putWithKey = (path: string, secret: string, json: unknown) => api(path, { method: "PUT", headers: keyAuth(secret), json });

/** A customer who accepted the reseller terms (issue 46), with a live key: the bot's side of a reseller. */
export async function newReseller(balanceKobo = 1_000_000): Promise<TestUser & { secret: string }> {
  const user = await createUser({ balanceKobo });
  const accepted = await api("/api/reseller", { token: user.token, json: { accept_terms: true } });
  if (accepted.status !== 200 || accepted.data.reseller !== true) throw new Error(`not a reseller: ${accepted.status} ${JSON.stringify(accepted.data)}`);
  return { ...user, secret: (await createKey(user, "live")).secret };
}

/** A sub-account of the reseller behind `secret`, with `naira` moved into it. */
export async function fundedSubaccount(reseller: { secret: string }, naira = 5000): Promise<string> {
  const sub = await postWithKey("/api/v1/subaccounts", reseller.secret, { name: "Ada", external_id: `tg-${crypto.randomUUID().slice(0, 8)}` });
  if (sub.status !== 201) throw new Error(`sub-account not opened: ${sub.status} ${JSON.stringify(sub.data)}`);
  const funded = await postWithKey(`/api/v1/subaccounts/${sub.data.id}/transfer-in`, reseller.secret, { amount: naira });
  if (funded.status !== 201) throw new Error(`sub-account not funded: ${funded.status} ${JSON.stringify(funded.data)}`);
  return sub.data.id as string;
}
