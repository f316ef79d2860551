import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { clearSession, saveSession } from "../../lib/session";
import ApiSection from "./api-section";

/** A fake /api that answers like the worker does for the routes this section uses, and records what it was asked. */
function fakeApi(opts: { verified: boolean }) {
  const calls: { method: string; path: string; body: unknown }[] = [];
  const keys: Record<string, unknown>[] = [
    {
      id: "key_1",
      name: "Old bot",
      mode: "live",
      prefix: "sk_live_Ab12Cd",
      created_at: "2026-11-01T10:00:00.000Z",
      last_used_at: "2026-11-20T09:30:00.000Z",
      revoked_at: null,
      webhook_url: "https://hooks.example.com/in",
      scopes: [],
    },
  ];
  const events = [
    { id: "evt_1", type: "sms.code", status: "failed", attempts: 10, last_response_code: 500, last_error: "HTTP 500", created_at: "2026-11-20T09:00:00.000Z", next_attempt_at: null, delivered_at: null, payload: {} },
  ];
  const json = (data: unknown, status = 200) => new Response(JSON.stringify(data), { status, headers: { "content-type": "application/json" } });
  const fetchMock = vi.fn(async (input: string, init: RequestInit = {}) => {
    const method = init.method ?? "GET";
    const body = init.body ? JSON.parse(String(init.body)) : undefined;
    calls.push({ method, path: input, body });
    if (input === "/api/account") return json({ user: {}, email_verified: opts.verified, two_factor_enabled: false });
    if (input === "/api/keys" && method === "GET") return json({ data: keys });
    if (input === "/api/keys" && method === "POST") {
      const created = { ...keys[0], id: "key_2", name: body.name, mode: body.mode, prefix: "sk_test_Zz99Yy", last_used_at: null, webhook_url: null };
      keys.unshift(created);
      return json({ ...created, secret: "sk_test_Zz99YyAAAAAAAAAAAAAAAAAAAAAAAAAA", webhook_secret: "whsec_BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB" }, 201);
    }
    if (input === "/api/keys/key_1/revoke") {
      keys[0] = { ...keys[0], revoked_at: "2026-11-22T10:00:00.000Z" };
      return json(keys[0]);
    }
    if (input === "/api/keys/sandbox") return json({ balance: 2500 });
    if (input === "/api/keys/key_1/webhook/events") return json({ data: events });
    if (input === "/api/keys/key_1/webhook/events/evt_1/resend") return json({ ...events[0], status: "pending", attempts: 0 });
    if (input === "/api/keys/key_1/webhook") return json({ ...keys[0], webhook_url: body.url });
    if (input === "/api/keys/key_1/scopes") {
      keys[0] = { ...keys[0], scopes: body.scopes };
      return json(keys[0]);
    }
    return json({ code: "NOT_FOUND", message: "no", error: "no" }, 404);
  });
  vi.stubGlobal("fetch", fetchMock);
  return { calls };
}

function renderSection() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <ApiSection />
    </QueryClientProvider>,
  );
}

describe("Settings → API", () => {
  beforeEach(() => saveSession({ userId: "u1", username: "Ada", userNumber: "08012345678", userEmail: "ada@example.com" }, "token-a"));
  afterEach(() => {
    cleanup();
    clearSession();
    vi.unstubAllGlobals();
  });

  it("lists keys by name, prefix and last use; creating one shows its secret once, and the list never shows it", async () => {
    const { calls } = fakeApi({ verified: true });
    renderSection();
    const list = await screen.findByRole("list", { name: "API keys" });
    expect(within(list).getByText("Old bot")).toBeTruthy();
    expect(within(list).getByText(/sk_live_Ab12Cd/)).toBeTruthy();
    expect(within(list).getByText(/Last used/).textContent).not.toMatch(/never/);

    await waitFor(() => expect((screen.getByRole("textbox", { name: "Key name" }) as HTMLInputElement).disabled).toBe(false));
    fireEvent.change(screen.getByRole("textbox", { name: "Key name" }), { target: { value: "Reseller" } });
    fireEvent.click(screen.getByRole("button", { name: "Create key" }));
    const dialog = await screen.findByRole("dialog", { name: "Your new API key" });
    expect(within(dialog).getByText("sk_test_Zz99YyAAAAAAAAAAAAAAAAAAAAAAAAAA")).toBeTruthy();
    expect(within(dialog).getByText("whsec_BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB")).toBeTruthy();
    expect(calls.find((c) => c.method === "POST" && c.path === "/api/keys")?.body).toEqual({ name: "Reseller", mode: "test" });
    fireEvent.click(within(dialog).getByRole("button", { name: "I have copied it" }));
    await waitFor(() => expect(screen.queryByText("sk_test_Zz99YyAAAAAAAAAAAAAAAAAAAAAAAAAA")).toBeNull());
    expect(await within(screen.getByRole("list", { name: "API keys" })).findByText("Reseller")).toBeTruthy();
  });

  it("without a verified e-mail the create form is disabled and says why", async () => {
    fakeApi({ verified: false });
    renderSection();
    expect(await screen.findByText(/Verify your e-mail address/)).toBeTruthy();
    expect((screen.getByRole("textbox", { name: "Key name" }) as HTMLInputElement).disabled).toBe(true);
    expect((screen.getByRole("button", { name: "Create key" }) as HTMLButtonElement).disabled).toBe(true);
  });

  it("revoke asks first, then revokes; the delivery log shows status, attempts and response with Resend", async () => {
    const { calls } = fakeApi({ verified: true });
    renderSection();
    fireEvent.click(await screen.findByRole("button", { name: "Show delivery log" }));
    const table = await screen.findByRole("table", { name: "Webhook deliveries for Old bot" });
    const row = within(table).getAllByRole("row")[1];
    expect(row.textContent).toContain("sms.code");
    expect(row.textContent).toContain("failed");
    expect(row.textContent).toContain("10");
    expect(row.textContent).toContain("500");
    fireEvent.click(within(row).getByRole("button", { name: /Resend sms.code evt_1/ }));
    await waitFor(() => expect(calls.some((c) => c.method === "POST" && c.path === "/api/keys/key_1/webhook/events/evt_1/resend")).toBe(true));

    fireEvent.click(screen.getByRole("button", { name: "Revoke Old bot" }));
    const confirm = await screen.findByRole("dialog", { name: 'Revoke "Old bot"?' });
    expect(calls.some((c) => c.path === "/api/keys/key_1/revoke")).toBe(false);
    fireEvent.click(within(confirm).getByRole("button", { name: "Revoke key" }));
    await waitFor(() => expect(calls.some((c) => c.method === "POST" && c.path === "/api/keys/key_1/revoke")).toBe(true));
    expect(await screen.findByText("Revoked")).toBeTruthy();
  });

  it("a live key can be allowed to withdraw (issue 45): the box PUTs its scopes", async () => {
    const { calls } = fakeApi({ verified: true });
    renderSection();
    const box = await screen.findByRole("checkbox", { name: "Allow this key to withdraw" });
    expect((box as HTMLInputElement).checked).toBe(false);
    fireEvent.click(box);
    await waitFor(() => expect(calls.find((c) => c.path === "/api/keys/key_1/scopes")?.body).toEqual({ scopes: ["withdraw"] }));
    await waitFor(() => expect((screen.getByRole("checkbox", { name: "Allow this key to withdraw" }) as HTMLInputElement).checked).toBe(true));
  });

  it("a webhook URL that is not https is refused before it is sent", async () => {
    const { calls } = fakeApi({ verified: true });
    renderSection();
    const input = await screen.findByRole("textbox", { name: "Webhook URL for Old bot" });
    fireEvent.change(input, { target: { value: "ftp://x" } });
    fireEvent.click(screen.getByRole("button", { name: "Save URL" }));
    expect(await screen.findByText(/starting with https/)).toBeTruthy();
    expect(calls.some((c) => c.method === "PUT")).toBe(false);
    fireEvent.change(input, { target: { value: "https://hooks.example.com/new" } });
    fireEvent.click(screen.getByRole("button", { name: "Save URL" }));
    await waitFor(() => expect(calls.find((c) => c.method === "PUT")?.body).toEqual({ url: "https://hooks.example.com/new" }));
  });
});
