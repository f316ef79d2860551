import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { EmailDeliveryError } from "./email-sender";
import { ResendEmailSender } from "./resend";

/**
 * A fake speaking Resend's documented API: POST /emails with a bearer key and {from, to[], subject, text, html?};
 * 200 {id}; errors {statusCode, name, message}.
 */
function fakeResend(mode: "ok" | "refuse" | "html" | "no-id" | "hang" | "network" = "ok") {
  const received: { auth?: string; body?: Record<string, unknown>; path?: string; userAgent?: string }[] = [];
  const app = new Hono();
  app.post("/emails", async (c) => {
    received.push({ auth: c.req.header("authorization"), body: await c.req.json(), path: c.req.path, userAgent: c.req.header("user-agent") });
    if (c.req.header("authorization") !== "Bearer re_test_key") {
      return c.json({ statusCode: 401, name: "missing_api_key", message: "Missing API key in the authorization header." }, 401);
    }
    if (mode === "refuse") return c.json({ statusCode: 422, name: "validation_error", message: "Invalid `from` field." }, 422);
    if (mode === "html") return c.html("<html><body>502 Bad Gateway</body></html>", 502);
    if (mode === "no-id") return c.html("<html>ok</html>", 200);
    if (mode === "hang") await new Promise(() => {});
    return c.json({ id: "49a3999c-0ce1-4ea6-ab68-afcd6dc2e794" });
  });
  const fetch = async (request: Request) => {
    if (mode === "network") throw new TypeError("fetch failed");
    return app.fetch(request);
  };
  return { fetch, received };
}

const message = { to: "ada@example.com", subject: "Reset your password", text: "Open https://app.test/#/reset-password/1?token=t&id=i", html: "<p>Open</p>" };

describe("ResendEmailSender", () => {
  it("posts the documented request and accepts an id", async () => {
    const fake = fakeResend();
    const sender = new ResendEmailSender({ key: "re_test_key", from: "Numbers <no-reply@app.test>", baseUrl: "https://resend.test/", fetch: fake.fetch });
    await sender.send(message);
    expect(fake.received).toEqual([
      {
        auth: "Bearer re_test_key",
        path: "/emails",
        userAgent: expect.stringMatching(/^virtual-numbers\/\d/),
        body: { from: "Numbers <no-reply@app.test>", to: ["ada@example.com"], subject: "Reset your password", text: message.text, html: "<p>Open</p>" },
      },
    ]);
    expect(sender.sendInBackground).toBe(true);
  });

  it("reports Resend's refusal with its message and status, never the key", async () => {
    const sender = new ResendEmailSender({ key: "re_test_key", from: "x@app.test", fetch: fakeResend("refuse").fetch });
    const err = await sender.send(message).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EmailDeliveryError);
    expect((err as EmailDeliveryError).status).toBe(422);
    expect((err as Error).message).toContain("Invalid `from` field.");
    const unauthorized = await new ResendEmailSender({ key: "re_wrong", from: "x@app.test", fetch: fakeResend().fetch }).send(message).catch((e: Error) => e);
    expect((unauthorized as EmailDeliveryError).status).toBe(401);
    expect((unauthorized as Error).message).not.toContain("re_wrong");
  });

  it("treats an HTML error page or a reply without an id as a failure", async () => {
    for (const mode of ["html", "no-id"] as const) {
      const sender = new ResendEmailSender({ key: "re_test_key", from: "x@app.test", fetch: fakeResend(mode).fetch });
      await expect(sender.send(message)).rejects.toBeInstanceOf(EmailDeliveryError);
    }
  });

  it("gives up after its timeout and on a network failure", async () => {
    const hanging = new ResendEmailSender({ key: "re_test_key", from: "x@app.test", fetch: fakeResend("hang").fetch, timeoutMs: 50 });
    await expect(hanging.send(message)).rejects.toThrow(/did not answer within the time limit \(no answer within 50 ms\)/);
    const offline = new ResendEmailSender({ key: "re_test_key", from: "x@app.test", fetch: fakeResend("network").fetch });
    await expect(offline.send(message)).rejects.toThrow(/could not be reached/);
  });
});
