import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../config";
import { api, db } from "../../test/helpers";
import { OutboxEmailSender } from "./outbox";
import { emailSenderFor } from "./select";

describe("local outbox", () => {
  it("stores mail and lists it, newest first, as a page and as JSON", async () => {
    const sender = new OutboxEmailSender(db());
    expect(sender.sendInBackground).toBe(false);
    await sender.send({ to: "first@example.com", subject: "Hello", text: "Plain text" });
    await sender.send({ to: "second@example.com", subject: "Reset your password", text: "Open http://127.0.0.1:8787/#/reset-password/1?token=abc&id=r1 <now>" });

    const json = await api("/sandbox/outbox.json");
    expect(json.status).toBe(200);
    expect(json.data.data.map((m: { to: string }) => m.to).slice(0, 2)).toEqual(["second@example.com", "first@example.com"]);
    expect(json.data.data[0]).toMatchObject({ subject: "Reset your password", link: "http://127.0.0.1:8787/#/reset-password/1?token=abc&id=r1" });
    const filtered = await api("/sandbox/outbox.json?to=FIRST@example.com");
    expect(filtered.data.data).toHaveLength(1);

    const page = await api("/sandbox/outbox");
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toContain("text/html");
    expect(page.data).toContain('href="http://127.0.0.1:8787/#/reset-password/1?token=abc&amp;id=r1"');
    // Mail content is escaped, not rendered.
    expect(page.data).toContain("&lt;now&gt;");
  });

  it("refuses a bad query with the one error body", async () => {
    const res = await api("/sandbox/outbox.json?limit=0");
    expect(res.status).toBe(400);
    expect(res.data).toMatchObject({ code: "VALIDATION_FAILED" });
  });

  it("is the sender in sandbox mode; live mode with a key uses Resend", () => {
    const sandbox = emailSenderFor(env, loadConfig(env), db());
    expect(sandbox.name).toBe("outbox");
    const liveEnv = { ...env, PROVIDERS: "live", RESEND_API_KEY: "re_key", EMAIL_FROM: "no-reply@app.test" };
    expect(emailSenderFor(liveEnv, loadConfig(liveEnv), db()).name).toBe("resend");
  });
});
