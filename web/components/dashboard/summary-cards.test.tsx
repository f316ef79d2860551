import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { CountCard, countUnit } from "./summary-cards";

afterEach(cleanup);

// Issue 28: "Purchase Number 9" was jargon. The spec's titles stay; the figure says what it counts.
describe("the dashboard's count cards", () => {
  it("say what the figure counts, singular and plural", () => {
    expect(countUnit("sms", 1)).toBe("number bought");
    expect(countUnit("sms", 9)).toBe("numbers bought");
    expect(countUnit("rental", 0)).toBe("numbers rented");
    render(<CountCard title="Purchase Number" count={9} loading={false} tour="purchase" to="/sms/1" actionLabel="Receive SMS" kind="sms" />);
    expect(screen.getByText("Purchase Number")).toBeTruthy();
    expect(screen.getByTestId("sms-count").textContent).toBe("9numbers bought");
  });
});
