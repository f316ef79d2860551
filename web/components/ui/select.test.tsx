import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { Select } from "./select";

const options = [
  { value: "btc", label: "BTC" },
  { value: "sol", label: "SOL" },
];

describe("Select while its options load", () => {
  afterEach(cleanup);

  // jsdom lays nothing out: the select keeps its active option in view with scrollIntoView, which jsdom lacks.
  Element.prototype.scrollIntoView = () => undefined;

  it("says it is busy and unavailable, does not open on a press, and opens once loaded", () => {
    const choose = vi.fn();
    const { rerender } = render(<Select aria-label="Payment currency" options={[]} value={null} onValueChange={choose} loading loadingText="Loading currencies..." />);
    const trigger = screen.getByRole("combobox", { name: "Payment currency" });
    expect(trigger.getAttribute("aria-busy")).toBe("true");
    expect(trigger.getAttribute("aria-disabled")).toBe("true");
    expect(trigger.textContent).toContain("Loading currencies...");
    fireEvent.click(trigger);
    expect(screen.queryByRole("listbox")).toBeNull();

    rerender(<Select aria-label="Payment currency" options={options} value={null} onValueChange={choose} placeholder="Select a currency" />);
    expect(trigger.hasAttribute("aria-busy")).toBe(false);
    expect(trigger.hasAttribute("aria-disabled")).toBe(false);
    fireEvent.click(trigger);
    expect(screen.getAllByRole("option").map((o) => o.textContent)).toEqual(["BTC", "SOL"]);
  });
});
