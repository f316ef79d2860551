import { Hono } from "hono";
import { html, raw } from "hono/html";
import { z } from "zod";
import type { AppEnv } from "../app-env";
import { getDb } from "../db/client";
import { validate } from "../lib/validate";
import { listOutbox, type OutboxEntry } from "../providers/email/outbox";

/**
 * The local outbox (sandbox only, behind sandboxRoutes' guard): every e-mail the app "sent", so a developer and the
 * e2e journey can follow a reset link. /sandbox/outbox is a page, /sandbox/outbox.json the same list as data.
 */
const outboxQuery = z.object({
  to: z.string().trim().max(254).optional(),
  limit: z.coerce.number().int().min(1).max(200).optional(),
});

export const outboxSandboxRoutes = new Hono<AppEnv>()
  .get("/outbox.json", validate("query", outboxQuery), async (c) => {
    const entries = await listOutbox(getDb(c.env.DB), c.req.valid("query"));
    return c.json({ data: entries.map(toJson) });
  })
  .get("/outbox", validate("query", outboxQuery), async (c) => {
    const entries = await listOutbox(getDb(c.env.DB), c.req.valid("query"));
    c.header("cache-control", "no-store");
    return c.html(page(entries));
  });

function toJson(entry: OutboxEntry) {
  return {
    id: entry.id,
    to: entry.to,
    subject: entry.subject,
    body: entry.body,
    link: firstLink(entry.body),
    created_at: new Date(entry.createdAt).toISOString(),
  };
}

function firstLink(text: string): string | null {
  return /https?:\/\/\S+/.exec(text)?.[0] ?? null;
}

function page(entries: OutboxEntry[]) {
  const items = entries.map((entry) => {
    const link = firstLink(entry.body);
    return html`<article>
      <header><strong>${entry.subject}</strong> → ${entry.to} <time>${new Date(entry.createdAt).toISOString()}</time></header>
      <pre>${entry.body}</pre>
      ${link ? html`<p><a href="${link}">Open the link</a></p>` : ""}
    </article>`;
  });
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>Local outbox (sandbox)</title>
        <style>
          body { font: 15px/1.5 system-ui, sans-serif; max-width: 760px; margin: 2rem auto; padding: 0 1rem; color: #111; }
          article { border: 1px solid #ddd; border-radius: 8px; padding: 1rem; margin: 1rem 0; }
          pre { white-space: pre-wrap; word-break: break-all; background: #f6f6f6; padding: .75rem; border-radius: 6px; }
          time { color: #666; font-size: .85em; margin-left: .5rem; }
        </style>
      </head>
      <body>
        <h1>Local outbox</h1>
        <p>Sandbox mode stores e-mail here instead of sending it. Newest first.</p>
        ${entries.length === 0 ? html`<p>No e-mail yet.</p>` : raw("")}
        ${items}
      </body>
    </html>`;
}
