import { describe, expect, it } from "vitest";
import { endConfirmationText } from "./end-confirmation";

const now = Date.parse("2026-11-22T12:00:00Z");

describe("the End rental confirmation", () => {
  it("says the time left and that nothing comes back when the server says so", () => {
    const text = endConfirmationText({ expires_at: "2026-11-22T15:30:00Z", refund_if_ended: 0, refund_if_cancelled: null }, now);
    expect(text.title).toBe("End this rental now?");
    expect(text.body).toBe("It still has 3h 30m left. No money comes back: the time left is not refunded, and the number stops receiving SMS.");
    expect(text.cancelHint).toBeNull();
  });

  it("points to the refunding cancel with the server's amount while it is allowed", () => {
    const text = endConfirmationText({ expires_at: "2026-11-22T13:00:00Z", refund_if_ended: 0, refund_if_cancelled: 268.8 }, now);
    expect(text.cancelHint).toBe("Cancelling instead returns the full ₦268.80, because no SMS has arrived yet.");
  });

  it("names the amount when the server says ending gives some back", () => {
    expect(endConfirmationText({ expires_at: null, refund_if_ended: 1200, refund_if_cancelled: null }, now).body).toBe(
      "₦1,200.00 comes back to your wallet.",
    );
  });
});
