import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import StatusIncidentsPage from "./status-incidents";

vi.mock("../../lib/session", async (orig) => ({ ...(await orig<object>()), getToken: () => "operator-token" }));

afterEach(cleanup);
beforeEach(() => vi.unstubAllGlobals());

const open = { id: 7, title: "Dynamic SMS slow", body: "Codes take longer.", provider: "Dynamic", started_at: "2026-11-26T18:00:00.000Z", resolved_at: null };
const closed = { id: 3, title: "Old", body: "Done.", provider: null, started_at: "2026-11-20T08:00:00.000Z", resolved_at: "2026-11-20T09:00:00.000Z" };

let sent: { method: string; url: string; body: unknown }[] = [];
function serve() {
  sent = [];
  vi.stubGlobal("fetch", async (url: string, init: RequestInit) => {
    const method = init.method ?? "GET";
    if (method === "GET") return new Response(JSON.stringify({ data: [open, closed] }), { status: 200 });
    sent.push({ method, url, body: JSON.parse(String(init.body)) });
    if (url.endsWith("/resolve")) return new Response(JSON.stringify({ ...open, resolved_at: "2026-11-26T19:00:00.000Z" }), { status: 200 });
    return new Response(JSON.stringify({ ...open, id: 8, title: "Card payments delayed", provider: null }), { status: 201 });
  });
}

const show = () =>
  render(
    <QueryClientProvider client={new QueryClient()}>
      <StatusIncidentsPage />
    </QueryClientProvider>,
  );

describe("status incidents in the console", () => {
  it("posts an incident with its public text, the provider it affects (or none) and the reason for the audit log", async () => {
    serve();
    show();
    const form = within(screen.getByRole("form", { name: "Post incident" }));
    fireEvent.change(form.getByLabelText("Title (public)"), { target: { value: "Card payments delayed" } });
    fireEvent.change(form.getByLabelText("What customers should know (public)"), { target: { value: "Squad is slow; credits come late." } });
    expect((form.getByRole("button", { name: "Post incident" }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(form.getByLabelText(/Reason/), { target: { value: "Squad status page" } });
    fireEvent.click(form.getByRole("button", { name: "Post incident" }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toEqual({
      method: "POST",
      url: "/api/admin/status-incidents",
      body: { title: "Card payments delayed", body: "Squad is slow; credits come late.", provider: null, reason: "Squad status page" },
    });
    expect(await form.findByText("Posted “Card payments delayed”.")).toBeTruthy();
  });

  it("lists incidents and resolves an open one with a reason; a resolved one has no form", async () => {
    serve();
    show();
    const table = await screen.findByRole("table");
    expect(within(table).getByText("Dynamic SMS slow")).toBeTruthy();
    expect(within(table).getByText("Whole service")).toBeTruthy();
    expect(screen.queryByRole("form", { name: "Resolve “Old”" })).toBeNull();
    const resolve = within(screen.getByRole("form", { name: "Resolve “Dynamic SMS slow”" }));
    fireEvent.change(resolve.getByLabelText(/Reason/), { target: { value: "sms-man answers again" } });
    fireEvent.click(resolve.getByRole("button", { name: "Resolve “Dynamic SMS slow”" }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toEqual({ method: "POST", url: "/api/admin/status-incidents/7/resolve", body: { reason: "sms-man answers again" } });
  });
});
