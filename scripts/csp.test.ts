import { createHash } from "node:crypto";
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { adImageOrigins, documentPolicy, inlineScriptHashes, inlineScripts, NON_DOCUMENT_POLICY, parsePolicy } from "../schema/csp";

// The build-time half of the Content-Security-Policy (decision 021): the hashes the web build writes for index.html's
// inline scripts, and the static files' headers. The journeys check the same against the real build and the real
// headers (e2e/landing.spec.ts); these hold the pieces to their cases.

const root = path.join(import.meta.dirname, "..");
/** Node's own SHA-256, an independent check of the Web Crypto one the build and worker use. */
const nodeHash = (text: string) => `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;

describe("inline script hashes", () => {
  it("hash exactly each inline script's text, skipping scripts loaded from a file", async () => {
    const theme = `\n      (function () { document.documentElement.classList.toggle("dark", true); })();\n    `;
    const preload = `(function(){["/assets/a.js"].forEach(function(f){});})();`;
    const html = `<!doctype html><head><script>${preload}</script><script>${theme}</script></head><body><script type="module" crossorigin src="/assets/index-x.js"></script></body>`;
    expect(inlineScripts(html)).toEqual([preload, theme]);
    expect(await inlineScriptHashes(html)).toEqual([nodeHash(preload), nodeHash(theme)]);
  });

  it("hash what the browser hashes: line endings as the HTML parser normalises them, text as UTF-8", async () => {
    const html = `<script>var a = 1;\r\nvar b = "₦—é";\r</script>`;
    expect(await inlineScriptHashes(html)).toEqual([nodeHash(`var a = 1;\nvar b = "₦—é";\n`)]);
  });

  it("refuse a document whose scripts cannot all be read (one left unhashed would be blocked)", () => {
    expect(() => inlineScripts(`<script>var a = 1;</script><script>never closed`)).toThrow(/could not be read/);
  });

  it("the template's theme script is among the hashed ones", async () => {
    const template = readFileSync(path.join(root, "web/index.html"), "utf8");
    const scripts = inlineScripts(template);
    expect(scripts).toHaveLength(1);
    expect(scripts[0]).toContain('localStorage.getItem("theme")');
  });
});

describe("the policies", () => {
  it("the document policy allows no inline script or eval, and sockets only on PUBLIC_URL's host", () => {
    const policy = parsePolicy(documentPolicy({ publicUrl: "https://app.example.ng", scriptHashes: ["'sha256-abc='"], adImageOrigins: [] }));
    expect(policy.get("script-src")).toEqual(["'self'", "'sha256-abc='"]);
    expect(policy.get("connect-src")).toEqual(["'self'", "wss://app.example.ng"]);
    expect(policy.get("img-src")).toEqual(["'self'", "https://app.example.ng"]);
  });

  it("ad image hosts are https origins only, each once", () => {
    expect(
      adImageOrigins([
        { url: "/ads/whatsapp.svg" },
        { url: "https://cdn.example.net/a.png" },
        { url: "https://cdn.example.net/b.png?x=1" },
        { url: "http://plain.example/a.png" },
        { url: "https://user:pw@creds.example/a.png" },
      ]),
    ).toEqual(["https://cdn.example.net", "https://creds.example"]);
  });

  it("static files carry the same deny-all policy as the worker's non-document answers (web/public/_headers)", () => {
    const headers = readFileSync(path.join(root, "web/public/_headers"), "utf8");
    const rules = headers.split(/\n(?=\S)/);
    const all = rules.find((r) => r.startsWith("/*\n"));
    expect(all).toBeDefined();
    const csp = /^\s+Content-Security-Policy:\s*(.+)$/m.exec(all!)?.[1];
    expect(csp).toBe(NON_DOCUMENT_POLICY);
    expect(all).toMatch(/^\s+X-Content-Type-Options: nosniff$/m);
    expect(all).toMatch(/^\s+X-Frame-Options: DENY$/m);
  });

  it("the worker runs first for everything but the static files, so no index.html bypasses the document policy", () => {
    const toml = readFileSync(path.join(root, "wrangler.toml"), "utf8");
    const line = /^run_worker_first\s*=\s*(\[.*\])$/m.exec(toml)?.[1];
    const patterns = JSON.parse(line!) as string[];
    expect(patterns[0]).toBe("/*");
    const skipped = patterns.slice(1);
    expect(skipped.every((p) => p.startsWith("!/"))).toBe(true);
    // Each skipped address is a static folder or file of the build, never "/" or an HTML file.
    const publicFiles = new Set(readdirSync(path.join(root, "web/public")));
    for (const pattern of skipped) {
      const target = pattern.slice(2).replace(/\/\*$/, "");
      expect(target === "assets" || publicFiles.has(target), pattern).toBe(true);
      expect(target).not.toMatch(/\.html?$|^$/);
    }
  });
});
