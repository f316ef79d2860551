import { chromium } from "@playwright/test";
const url = "http://127.0.0.1:8818";
const email = `shots-${Date.now()}@example.com`;
const reg = await (await fetch(`${url}/api/register/`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ username: "Chidinma", number: "08031234567", email, password: "secret123" }) })).json();
const init = await (await fetch(`${url}/api/initialize-transaction`, { method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${reg.token}` }, body: JSON.stringify({ amount: 20000, currency: "NGN" }) })).json();
await fetch(`${url}/sandbox/squad/${encodeURIComponent(init.data.data.transaction_ref)}/complete`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ outcome: "success" }) });
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--headless", "--no-sandbox", "--disable-gpu"] });
const screens = (process.argv[2] ?? "dashboard").split(",");
const widths = (process.argv[3] ?? "375,1280").split(",").map(Number);
const theme = process.argv[4] ?? "light";
for (const w of widths) {
  const ctx = await browser.newContext({ viewport: { width: w, height: 800 } });
  await ctx.addInitScript(([s, theme]) => {
    localStorage.setItem("authToken", s.token); localStorage.setItem("userData", JSON.stringify(s.user)); localStorage.setItem("auth", JSON.stringify(s));
    localStorage.setItem("dashboardTourCompleted", "true"); localStorage.setItem("theme", theme);
  }, [reg, theme] as const);
  const page = await ctx.newPage();
  for (const s of screens) {
    await page.goto(`${url}/#/${s}/1`);
    await page.waitForTimeout(2500);
    await page.screenshot({ path: `/tmp/finish-shot-${s}-${w}-${theme}.png`, fullPage: process.argv[5] === "full" });
  }
  await ctx.close();
}
await browser.close();
