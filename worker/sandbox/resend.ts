import { Hono } from "hono";
import { z } from "zod";
import { getDb } from "../db/client";
import type { Env } from "../config";
import { OutboxEmailSender } from "../providers/email/outbox";

/**
 * Sandbox Resend, written from Resend's documents, not from our adapter: the API the REAL Resend adapter can be bound
 * to (providers:check, tests, a test bench pointing RESEND_BASE_URL here). Accepted mail lands in the local outbox.
 * Strict like the real service (https://resend.com/docs/api-reference/introduction, /errors):
 * - no User-Agent: 403 with Cloudflare's "error code: 1010" page (the audit's failure mode);
 * - no bearer key: 401 missing_api_key; a wrong key: 403 invalid_api_key;
 * - POST /emails without from, to or subject, or with neither html nor text: 422 validation_error;
 * - GET /api-keys with a sending-only key: 401 restricted_api_key (what a production key should be).
 * The expected key is RESEND_API_KEY, or SANDBOX_RESEND_KEY in sandbox mode; a key starting "re_send_" is
 * treated as sending-only.
 */
export const RESEND_SIMULATOR_PATH = "/sandbox/resend-api";
export const SANDBOX_RESEND_KEY = "re_sandbox_full_access";

const resendError = (statusCode: number, name: string, message: string) => ({ statusCode, name, message });

const emailBody = z.object({
  from: z.string({ message: "Missing `from` field." }).min(1, "Missing `from` field."),
  to: z.union([z.string().email(), z.array(z.string().email()).min(1).max(50)], { message: "Missing `to` field." }),
  subject: z.string({ message: "Missing `subject` field." }).min(1, "Missing `subject` field."),
  text: z.string().optional(),
  html: z.string().optional(),
});

function expectedKeys(env: Env): { full: string; sending: string } {
  const key = env.RESEND_API_KEY || SANDBOX_RESEND_KEY;
  return { full: key, sending: `re_send_${key}` };
}

export const resendSimulator = new Hono<{ Bindings: Env; Variables: { sendingOnly: boolean } }>().basePath(RESEND_SIMULATOR_PATH);

resendSimulator.use("*", async (c, next) => {
  if (!c.req.header("user-agent")) return c.text("error code: 1010", 403);
  const header = c.req.header("authorization") ?? "";
  const token = header.startsWith("Bearer ") ? header.slice(7).trim() : "";
  if (!token) return c.json(resendError(401, "missing_api_key", "Missing API key in the authorization header."), 401);
  const keys = expectedKeys(c.env);
  if (token !== keys.full && token !== keys.sending) return c.json(resendError(403, "invalid_api_key", "API key is invalid"), 403);
  c.set("sendingOnly", token === keys.sending);
  await next();
});

resendSimulator.post("/emails", async (c) => {
  let raw: unknown;
  try {
    raw = JSON.parse(await c.req.text());
  } catch {
    return c.json(resendError(400, "invalid_request", "Request body is not valid JSON."), 400);
  }
  const parsed = emailBody.safeParse(raw);
  if (!parsed.success) return c.json(resendError(422, "validation_error", parsed.error.issues[0]?.message ?? "Invalid request."), 422);
  const mail = parsed.data;
  if (!mail.text && !mail.html) return c.json(resendError(422, "validation_error", "Missing `html` or `text` field."), 422);
  // Idempotency-Key (https://resend.com/docs/dashboard/emails/idempotency-keys): a key seen in the last 24 hours is
  // answered with the first send's id and nothing is sent again.
  const key = c.req.header("idempotency-key");
  if (key !== undefined && (key.length === 0 || key.length > 256)) return c.json(resendError(422, "validation_error", "The idempotency key must be 1 to 256 characters."), 422);
  const stateKey = key ? `resend-idempotency:${key}` : null;
  if (stateKey) {
    const seen = await c.env.DB.prepare("SELECT value, updated_at FROM sandbox_state WHERE key = ?").bind(stateKey).first<{ value: string; updated_at: number }>();
    if (seen && seen.updated_at > Date.now() - 24 * 3600_000) return c.json({ id: seen.value });
  }
  const recipients = Array.isArray(mail.to) ? mail.to : [mail.to];
  const outbox = new OutboxEmailSender(getDb(c.env.DB));
  for (const to of recipients) await outbox.send({ to, subject: mail.subject, text: mail.text ?? mail.html ?? "" });
  const id = crypto.randomUUID();
  if (stateKey) {
    await c.env.DB.prepare("INSERT INTO sandbox_state (key, value, updated_at) VALUES (?, ?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at")
      .bind(stateKey, id, Date.now())
      .run();
  }
  return c.json({ id });
});

resendSimulator.get("/api-keys", (c) => {
  if (c.get("sendingOnly")) return c.json(resendError(401, "restricted_api_key", "This API key is restricted to only send emails."), 401);
  return c.json({ object: "list", has_more: false, data: [{ id: "91f3200a-df72-4654-b0cd-f202395f5354", name: "Sandbox", created_at: new Date(0).toISOString() }] });
});
