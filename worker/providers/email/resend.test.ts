import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { EmailDeliveryError } from "./email-sender";
import restrictedKey from "./fixtures/resend-error-restricted-key.json?raw";
import sent from "./fixtures/resend-send-email.json?raw";
import validationError from "./fixtures/resend-error-validation.json?raw";
import { ResendEmailSender } from "./resend";

/**
 * A fake speaking Resend's documented API: POST /emails with a bearer key and {from, to[], subject, text, html?};
 * 200 {id}; errors {statusCode, name, message}.
 */
function fakeResend(mode: "ok" | "refuse" | "html" | "no-id" | "hang" | "network" = "ok") {
  const received: { auth?: string; body?: Record<string, unknown>; path?: string; userAgent?: string }[] = [];
  const app = new Hono();
  app.post("/emails", async (c) => {
    // Resend refuses a request without a User-Agent with 403, error code 1010 (https://resend.com/docs/api-reference/introduction).
    if (!c.req.header("user-agent")) return c.text("error code: 1010", 403);
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

describe("ResendEmailSender against Resend's documented replies (golden fixtures)", () => {
  const replying = (body: string, status: number) => {
    const seen: Request[] = [];
    const fetch = (request: Request) => {
      seen.push(request);
      return new Response(body, { status, headers: { "content-type": "application/json" } });
    };
    return { fetch, seen };
  };

  it("accepts the documented 200 {id} and sends a User-Agent, the bearer key and JSON to RESEND_BASE_URL", async () => {
    const upstream = replying(sent, 200);
    await new ResendEmailSender({ key: "re_123", from: "x@app.test", baseUrl: "https://resend.bench.test/", fetch: upstream.fetch }).send(message);
    const [request] = upstream.seen;
    expect(request.url).toBe("https://resend.bench.test/emails");
    expect(request.headers.get("user-agent")).toMatch(/^virtual-numbers\/\d/);
    expect(request.headers.get("authorization")).toBe("Bearer re_123");
    expect(request.headers.get("content-type")).toBe("application/json");
  });

  it("reports the documented error body's name and message", async () => {
    const err = await new ResendEmailSender({ key: "re_123", from: "bad", fetch: replying(validationError, 422).fetch }).send(message).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EmailDeliveryError);
    expect((err as Error).message).toContain("validation_error: Invalid `from` field.");
    const restricted = await new ResendEmailSender({ key: "re_123", from: "x@app.test", fetch: replying(restrictedKey, 401).fetch }).send(message).catch((e: unknown) => e);
    expect((restricted as EmailDeliveryError).status).toBe(401);
  });

  it("a request without a User-Agent is what Resend refuses (the fake is strict): ours always carries one", async () => {
    const fake = fakeResend();
    const bare = await fake.fetch(new Request("https://resend.test/emails", { method: "POST", headers: { authorization: "Bearer re_test_key" }, body: "{}" }));
    expect(bare.status).toBe(403);
    expect(await bare.text()).toContain("1010");
    await new ResendEmailSender({ key: "re_test_key", from: "x@app.test", fetch: fake.fetch }).send(message);
    expect(fake.received).toHaveLength(1);
  });
});
