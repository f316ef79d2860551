import { cleanup, render } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { ServiceLogo, serviceIcon } from "./service-logo";

afterEach(cleanup);

describe("service logos", () => {
  it("matches the common brands by the provider's name, Twitter as X", () => {
    expect(serviceIcon("WhatsApp")?.slug).toBe("whatsapp");
    expect(serviceIcon("Twitter")?.slug).toBe("x");
    expect(serviceIcon("Sandbox No-SMS")).toBeUndefined();
  });

  it("draws a bundled SVG path (no request), a too-dark brand in the text colour, and an initial otherwise", () => {
    const { container } = render(
      <>
        <ServiceLogo name="Telegram" />
        <ServiceLogo name="Uber" />
        <ServiceLogo name="Zomato Local" />
      </>,
    );
    const svgs = container.querySelectorAll("svg");
    expect(svgs).toHaveLength(2);
    expect(svgs[0].getAttribute("fill")).toMatch(/^#[0-9A-Fa-f]{6}$/);
    expect(svgs[0].querySelector("path")?.getAttribute("d")?.length).toBeGreaterThan(20);
    expect(svgs[1].getAttribute("fill")).toBe("currentColor");
    expect(container.querySelector("img")).toBeNull();
    expect(container.textContent).toBe("Z");
  });
});
