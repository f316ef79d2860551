import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { SmsDialog } from "./sms-dialog";

function renderDialog(props: Partial<Parameters<typeof SmsDialog>[0]> = {}) {
  const handlers = { onOpenChange: vi.fn(), onCancelRequest: vi.fn(), onDismiss: vi.fn() };
  render(<SmsDialog open phase="waiting" number="+15550001111" code={null} cancelling={false} {...handlers} {...props} />);
  return handlers;
}

/** Escape on a native <dialog> fires its cancel event. */
const pressEscape = () => fireEvent(document.querySelector("dialog")!, new Event("cancel", { cancelable: true }));

// Vitest runs without globals here, so Testing Library cannot register its own cleanup.
afterEach(cleanup);

describe("SmsDialog", () => {
  it("waits with a spinner and offers Cancel Request", () => {
    const h = renderDialog();
    expect(screen.getByRole("heading", { name: "Waiting for SMS" })).toBeTruthy();
    expect(screen.getByText("Waiting for SMS...")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Cancel Request" }));
    expect(h.onCancelRequest).toHaveBeenCalledOnce();
  });

  it("a code arriving replaces Cancel Request with a new Done button: no fade between them, and no Enter meant for cancel lands on Done", () => {
    const handlers = { onOpenChange: vi.fn(), onCancelRequest: vi.fn(), onDismiss: vi.fn() };
    const dialog = (phase: "waiting" | "received") => (
      <SmsDialog open phase={phase} number="+15550001111" code={phase === "received" ? "123456" : null} cancelling={false} {...handlers} />
    );
    const view = render(dialog("waiting"));
    const cancel = screen.getByRole("button", { name: "Cancel Request" });
    cancel.focus();
    view.rerender(dialog("received"));
    const done = screen.getByRole("button", { name: "Done" });
    expect(done).not.toBe(cancel);
    expect(cancel.isConnected).toBe(false);
    expect(document.activeElement).not.toBe(done);
  });

  it("counts down to the server's refund time while waiting (issue 28)", () => {
    vi.useFakeTimers({ now: Date.parse("2026-11-26T10:00:00Z") });
    try {
      renderDialog({ refundAt: "2026-11-26T10:01:30Z" });
      expect(screen.getByTestId("sms-refund-countdown").textContent).toContain("If no code comes in 1:30, the number is released");
      act(() => vi.advanceTimersByTime(5000));
      expect(screen.getByRole("timer").textContent).toBe("1:25");
      act(() => vi.advanceTimersByTime(90_000));
      expect(screen.getByTestId("sms-refund-countdown").textContent).toContain("releasing the number");
    } finally {
      vi.useRealTimers();
    }
  });

  it("shows the whole SMS with its own copy button, or says the provider sends only the code (issue 28)", () => {
    renderDialog({ phase: "received", code: "482913", smsText: "Your WhatsApp code is 482913.\nDon't share it." });
    expect(screen.getByTestId("sms-full-text").textContent).toContain("Your WhatsApp code is 482913.");
    expect(screen.getByRole("button", { name: "Copy message" })).toBeTruthy();
    expect(screen.queryByTestId("sms-code-only")).toBeNull();
    cleanup();
    renderDialog({ phase: "received", code: "482913", smsText: null });
    expect(screen.getByTestId("sms-code-only").textContent).toBe("This provider sends only the code, not the whole message.");
    expect(screen.queryByTestId("sms-full-text")).toBeNull();
  });

  it("says when 'try another number' moved to another country, and explains a failure under the spec's words", () => {
    renderDialog({ switchedFrom: { from: "USA", to: "United Kingdom" }, route: { step: 2, max: 3, switching: false } });
    expect(screen.getByTestId("sms-country-changed").textContent).toContain("This number is from United Kingdom, not USA");
    cleanup();
    renderDialog({ phase: "error" });
    const alert = screen.getByRole("alert");
    expect(alert.textContent).toContain("Error polling SMS");
    expect(alert.textContent).toContain("The provider stopped this number before a code came.");
  });

  it("cannot be closed while the cancel flag is set", () => {
    const h = renderDialog({ cancelling: true });
    expect(screen.queryByRole("button", { name: "Close" })).toBeNull();
    pressEscape();
    expect(h.onOpenChange).not.toHaveBeenCalled();
    expect(h.onDismiss).not.toHaveBeenCalled();
  });

  it("can be hidden while waiting without ending the request", () => {
    const h = renderDialog();
    pressEscape();
    expect(h.onOpenChange).toHaveBeenCalledWith(false);
    expect(h.onDismiss).not.toHaveBeenCalled();
  });

  it("shows the code with Done once received", () => {
    const h = renderDialog({ phase: "received", code: "482913" });
    expect(screen.getByRole("heading", { name: "SMS Received" })).toBeTruthy();
    expect(screen.getByRole("button", { name: /Verification code: 482913/ })).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Cancel Request" })).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "Done" }));
    expect(h.onDismiss).toHaveBeenCalledOnce();
  });

  it("shows the timeout text with a destructive Close", () => {
    const h = renderDialog({ phase: "timeout" });
    // The spec's text, its ⏰ drawn as an icon (a box where no emoji font exists).
    const alert = screen.getByRole("alert");
    expect(alert.textContent).toContain("⏰ Timeout: No code received");
    expect(alert.querySelector('svg[data-emoji="⏰"]')).toBeTruthy();
    const close = screen.getAllByRole("button", { name: "Close" }).at(-1)!;
    expect(close.className).toContain("bg-red-600");
    fireEvent.click(close);
    expect(h.onDismiss).toHaveBeenCalled();
  });
});

describe("SmsDialog: another code on the same number", () => {
  it("says the price before the click and asks for another code", () => {
    const onAnotherCode = vi.fn();
    renderDialog({ phase: "received", code: "123456", another: { codes: ["123456"], available: true, waiting: false, price: 0, until: null, stopping: false }, onAnotherCode });
    expect(screen.getByTestId("sms-another-code-price").textContent).toBe("Another code on this number is free.");
    fireEvent.click(screen.getByRole("button", { name: "Get another code" }));
    expect(onAnotherCode).toHaveBeenCalledOnce();
  });

  it("keeps every code: the latest to copy, the earlier ones listed; waits without offering twice", () => {
    renderDialog({ phase: "received", code: "654321", another: { codes: ["123456", "654321"], available: false, waiting: true, price: 0, until: null, stopping: false }, onAnotherCode: vi.fn() });
    expect(screen.getByRole("button", { name: /Latest code: 654321/ })).toBeTruthy();
    expect(screen.getByTestId("sms-earlier-codes").textContent).toContain("123456");
    expect(screen.getByText("Waiting for another code...")).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Get another code" })).toBeNull();
  });

  it("counts down to the number's closing while another code is awaited, and can stop waiting (issue 43)", () => {
    const onStopWaiting = vi.fn();
    const until = new Date(Date.now() + 5 * 60_000 - 1500).toISOString();
    renderDialog({ phase: "received", code: "123456", another: { codes: ["123456"], available: false, waiting: true, price: 0, until, stopping: false }, onAnotherCode: vi.fn(), onStopWaiting });
    expect(screen.getByTestId("sms-another-countdown").textContent).toMatch(/^The number stays open for 4:5\d more\. Another code is free: nothing is charged if none comes\.$/);
    fireEvent.click(screen.getByRole("button", { name: "Stop waiting" }));
    expect(onStopWaiting).toHaveBeenCalledOnce();
  });

  it("offers nothing where the provider has no another code (price null)", () => {
    renderDialog({ phase: "received", code: "123456", another: { codes: ["123456"], available: false, waiting: false, price: null, until: null, stopping: false }, onAnotherCode: vi.fn() });
    expect(screen.queryByRole("button", { name: "Get another code" })).toBeNull();
    expect(screen.queryByTestId("sms-another-code-price")).toBeNull();
  });
});
