import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { AdsCarousel } from "./ads-carousel";

const ads = [
  { id: 1, url: "https://cdn.example.com//ads//one.png", link: "/#/sms/1", content: "Numbers for WhatsApp", bg: "bg-emerald-600" },
  { id: 2, url: "/ads/two.png", link: "/#/number/1", content: "Rent a number", bg: "not-a-known-class" },
];

function renderCarousel() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <AdsCarousel />
    </QueryClientProvider>,
  );
}

describe("ads carousel", () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it("shows 3 placeholders while loading, then the slides with collapsed image addresses", async () => {
    let answer: (r: Response) => void = () => {};
    vi.stubGlobal("fetch", vi.fn(() => new Promise<Response>((resolve) => (answer = resolve))));
    const { container } = renderCarousel();
    expect(screen.getAllByTestId("ad-placeholder")).toHaveLength(3);

    answer(new Response(JSON.stringify({ data: ads }), { status: 200 }));
    expect(await screen.findByRole("link", { name: "Numbers for WhatsApp" })).toBeTruthy();
    const images = Array.from(container.querySelectorAll("img")).map((img) => img.getAttribute("src"));
    expect(images).toEqual(["https://cdn.example.com/ads/one.png", "/ads/two.png"]);
    // An unknown background class falls back to one the stylesheet has; emerald-600 is drawn one shade darker so white
    // text on it reaches 4.5:1.
    expect(screen.getByRole("link", { name: "Rent a number" }).className).toContain("bg-emerald-700");
    expect(screen.getByRole("link", { name: "Numbers for WhatsApp" }).className).toContain("bg-emerald-700");
  });

  it("says 'Failed to load ads.' and Retry loads them", async () => {
    const fetchMock = vi
      .fn()
      .mockResolvedValueOnce(new Response(JSON.stringify({ code: "INTERNAL", message: "boom", error: "boom" }), { status: 500 }))
      .mockResolvedValue(new Response(JSON.stringify({ data: ads }), { status: 200 }));
    vi.stubGlobal("fetch", fetchMock);
    renderCarousel();
    expect(await screen.findByText("Failed to load ads.")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Retry" }));
    expect(await screen.findByRole("link", { name: "Numbers for WhatsApp" })).toBeTruthy();
  });
});
