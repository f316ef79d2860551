import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { LoadError } from "./load-error";

describe("LoadError", () => {
  afterEach(cleanup);

  it("says what failed, why, and what to try, and Try again refetches", () => {
    const retry = vi.fn();
    render(<LoadError what="your orders" error={new Error("Network error.")} onRetry={retry} />);
    const alert = screen.getByRole("alert");
    expect(alert.textContent).toContain("Could not load your orders: Network error. Check your connection, then try again.");
    fireEvent.click(screen.getByRole("button", { name: "Try again" }));
    expect(retry).toHaveBeenCalledTimes(1);
  });
});
