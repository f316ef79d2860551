import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import DeadLettersPage from "./dead-letters";

vi.mock("../../lib/session", async (orig) => ({ ...(await orig<object>()), getToken: () => "operator-token" }));

afterEach(cleanup);
beforeEach(() => vi.unstubAllGlobals());

const open = {
  id: `dlq_${"a".repeat(32)}`,
  kind: "webhook",
  target: "key_live1",
  delivery_id: "evt_1",
  reason: "HTTP 503",
  attempts: 10,
  created_at: "2026-11-28T18:00:00.000Z",
  replayed_at: null,
  replayed_by: null,
};
const replayed = { ...open, id: `dlq_${"b".repeat(32)}`, kind: "telegram", target: "777", delivery_id: "tgd_2", reason: "Bad Request: chat not found", replayed_at: "2026-11-28T19:00:00.000Z", replayed_by: "ops@example.com" };

let sent: { method: string; url: string; body: unknown }[] = [];
function serve() {
  sent = [];
  vi.stubGlobal("fetch", async (url: string, init: RequestInit) => {
    const method = init.method ?? "GET";
    if (method === "GET") return new Response(JSON.stringify({ data: [open, replayed] }), { status: 200 });
    sent.push({ method, url, body: JSON.parse(String(init.body)) });
    return new Response(JSON.stringify({ ...open, replayed_at: "2026-11-29T10:00:00.000Z", replayed_by: "me@example.com" }), { status: 200 });
  });
}

describe("failed deliveries in the console", () => {
  it("lists dead letters and replays one not yet replayed with a reason for the audit log; a replayed one has no form", async () => {
    serve();
    render(
      <QueryClientProvider client={new QueryClient()}>
        <DeadLettersPage />
      </QueryClientProvider>,
    );
    const table = await screen.findByRole("table");
    expect(within(table).getByText("Developer webhook")).toBeTruthy();
    expect(within(table).getByText("HTTP 503")).toBeTruthy();
    expect(within(table).getByText(/by ops@example\.com/)).toBeTruthy();
    expect(screen.queryByRole("form", { name: "Replay tgd_2" })).toBeNull();
    const replay = within(screen.getByRole("form", { name: "Replay evt_1" }));
    fireEvent.change(replay.getByLabelText(/Reason/), { target: { value: "the receiver is back" } });
    fireEvent.click(replay.getByRole("button", { name: "Replay evt_1" }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toEqual({ method: "POST", url: `/api/admin/dead-letters/${open.id}/replay`, body: { reason: "the receiver is back" } });
  });
});
