import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { DEFAULT_WHOLESALE_TIERS } from "../../../schema/settings";
import { WholesaleTiersForm } from "./prices";

// Issue 46 (decision 074): the console's wholesale tiers form. Each tier's name, 30-day spend threshold and discount are
// edited in place; the preview reads them lowest first; a save sends the whole list with the operator's reason.

afterEach(cleanup);

describe("the console's wholesale tiers form", () => {
  it("edits a tier, previews the list in order and saves it whole with the reason", async () => {
    const save = vi.fn(() => Promise.resolve({}));
    render(<WholesaleTiersForm value={DEFAULT_WHOLESALE_TIERS} save={save} />);
    const form = screen.getByTestId("setting-wholesale_tiers");
    expect(within(form).getByTestId("setting-preview").textContent).toContain("Wholesale 5: 5% off from ₦250,000.00 spent in 30 days");

    fireEvent.change(within(form).getByLabelText("Wholesale 5: discount"), { target: { value: "6" } });
    fireEvent.change(within(form).getByLabelText("Wholesale 5: from 30-day spend"), { target: { value: "200000" } });
    fireEvent.click(within(form).getByRole("button", { name: "Add a tier" }));
    fireEvent.change(within(form).getAllByLabelText("Name").at(-1)!, { target: { value: "Wholesale 20" } });
    fireEvent.change(within(form).getByLabelText("Wholesale 20: from 30-day spend"), { target: { value: "20000000" } });
    fireEvent.change(within(form).getByLabelText("Wholesale 20: discount"), { target: { value: "20" } });
    expect(within(form).getByTestId("setting-preview").textContent).toContain("Wholesale 5: 6% off from ₦200,000.00");
    expect(within(form).getByTestId("setting-preview").textContent).toMatch(/Wholesale 15: .* · Wholesale 20: 20% off from ₦20,000,000.00/);

    fireEvent.change(within(form).getByLabelText("Reason (recorded in the audit log)"), { target: { value: "bigger partners" } });
    fireEvent.click(within(form).getByRole("button", { name: "Save" }));
    await waitFor(() => expect(save).toHaveBeenCalledTimes(1));
    expect(save).toHaveBeenCalledWith({
      key: "wholesale_tiers",
      reason: "bigger partners",
      value: [
        DEFAULT_WHOLESALE_TIERS[0],
        { name: "Wholesale 5", threshold: 200_000, percentage: 6 },
        DEFAULT_WHOLESALE_TIERS[2],
        DEFAULT_WHOLESALE_TIERS[3],
        { name: "Wholesale 20", threshold: 20_000_000, percentage: 20 },
      ],
    });
  });
});
