import { cleanup, render } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { EmojiText } from "./emoji-text";

afterEach(cleanup);

describe("EmojiText", () => {
  it("draws ⏰ and ❌ as inline SVG icons and keeps the spec's text whole", () => {
    for (const text of ["⏰ Timeout: No code received", "❌ Error polling SMS"]) {
      const { container, unmount } = render(<EmojiText text={text} />);
      const svg = container.querySelector("svg");
      expect(svg?.getAttribute("aria-hidden")).toBe("true");
      expect(svg?.getAttribute("data-emoji")).toBe(text[0]);
      expect(container.textContent).toBe(text);
      expect(container.querySelector(".sr-only")?.textContent).toBe(`${text[0]} `);
      unmount();
    }
  });

  it("leaves other texts alone", () => {
    const { container } = render(<EmojiText text="SMS Received" />);
    expect(container.querySelector("svg")).toBeNull();
    expect(container.textContent).toBe("SMS Received");
  });
});
