import { env } from "cloudflare:workers";
import { runDurableObjectAlarm } from "cloudflare:test";
import { api, type TestUser } from "./helpers";
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
