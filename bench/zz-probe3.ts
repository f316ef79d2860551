import { chromium } from "@playwright/test";
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--headless", "--no-sandbox", "--disable-gpu"] });
const page = await browser.newPage();
page.on("console", (m) => console.log(m.type(), m.text().slice(0, 1500)));
page.on("pageerror", (e) => console.log("pageerror", e.message.slice(0, 1500)));
await page.goto(`http://127.0.0.1:8819/#/homepage/1`);
await page.waitForTimeout(2000);
await browser.close();
