import { act, cleanup, render, screen } from "@testing-library/react";
import { toast } from "sonner";
import { afterEach, describe, expect, it, vi } from "vitest";
import AppToaster from "./toaster";

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** A matchMedia that answers `phone` for the toaster's phone query (jsdom has none). */
function screenWidth(phone: boolean) {
  vi.stubGlobal("matchMedia", (query: string) => ({
    matches: query.includes("max-width: 599px") ? phone : false,
    media: query,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    addListener: () => undefined,
    removeListener: () => undefined,
  }));
}

async function shownToaster() {
  render(<AppToaster />);
  act(() => void toast.success("Welcome onboard"));
  await screen.findByText("Welcome onboard");
  return document.querySelector<HTMLElement>("[data-sonner-toaster]")!;
}

describe("where toasts show", () => {
  it("wider than a phone: top right, below the signed-in header (64 px), not over its balance, tier and theme", async () => {
    screenWidth(false);
    const toaster = await shownToaster();
    expect(toaster.dataset.yPosition).toBe("top");
    expect(toaster.dataset.xPosition).toBe("right");
    expect(Number.parseInt(toaster.style.getPropertyValue("--offset-top"), 10)).toBeGreaterThan(64);
  });

  it("on a phone: from the bottom, clear of the header's menu", async () => {
    screenWidth(true);
    const toaster = await shownToaster();
    expect(toaster.dataset.yPosition).toBe("bottom");
  });
});
