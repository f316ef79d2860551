import { expect, test } from "./support";

// Home-screen install (issue 17): the manifest and its icons are static assets with the right content types, linked
// from every page's HTML (the prerendered landing included), and no service worker is registered (no offline promise).

const pngSize = (bytes: Buffer) => ({ width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) });

test("the web app manifest and its icons are served and linked, with no service worker", async ({ request, page }) => {
  const html = await (await request.get("/")).text();
  expect(html).toContain('<link rel="manifest" href="/manifest.webmanifest"');
  expect(html).toContain('<link rel="apple-touch-icon" href="/icons/apple-touch-icon.png"');

  const res = await request.get("/manifest.webmanifest");
  expect(res.status()).toBe(200);
  expect(res.headers()["content-type"]).toMatch(/^application\/manifest\+json/);
  const manifest = JSON.parse(await res.text());
  expect(manifest).toMatchObject({ short_name: "VirtualNum", display: "standalone", scope: "/", start_url: "/#/dashboard/1" });

  // Chromium's install criteria: a 192 px and a 512 px PNG; plus a maskable one for Android's adaptive shapes.
  const wanted = [
    ["/icons/icon-192.png", 192, "any"],
    ["/icons/icon-512.png", 512, "any"],
    ["/icons/maskable-512.png", 512, "maskable"],
  ] as const;
  for (const [src, size, purpose] of wanted) {
    expect(manifest.icons).toContainEqual({ src, sizes: `${size}x${size}`, type: "image/png", purpose });
    const icon = await request.get(src);
    expect(icon.status()).toBe(200);
    expect(icon.headers()["content-type"]).toBe("image/png");
    expect(pngSize(await icon.body())).toEqual({ width: size, height: size });
  }
  const apple = await request.get("/icons/apple-touch-icon.png");
  expect(apple.headers()["content-type"]).toBe("image/png");
  expect(pngSize(await apple.body())).toEqual({ width: 180, height: 180 });

  // The browser reads the same link; nothing registers a service worker.
  await page.goto("/");
  await expect(page.locator('link[rel="manifest"]')).toHaveAttribute("href", "/manifest.webmanifest");
  expect(await page.evaluate(async () => (await navigator.serviceWorker.getRegistrations()).length)).toBe(0);
});
