import { execFileSync, spawnSync } from "node:child_process";
import path from "node:path";
import { E2E_ALONE_PORT, e2ePersistDir } from "../playwright.config";
import { ALONE, expect, test } from "./support";

// The operator CLI against the database the running product uses (the journeys' own local D1).
// ALONE journeys have their own server (playwright.config.ts): the CLI opens that server's database.
const port = E2E_ALONE_PORT;
const persistTo = e2ePersistDir(port);

function admin(...args: string[]): string {
  return execFileSync(path.join("node_modules", ".bin", "tsx"), ["scripts/admin.ts", ...args, "--persist-to", persistTo, "--actor", "e2e-operator"], {
    encoding: "utf8",
    env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
  });
}

// The journeys share one database: the operator's settings go back to what they were, whatever happens in the test.
let restore: (() => Promise<void>) | null = null;
test.afterEach(async () => {
  await restore?.();
  restore = null;
});

test("the operator CLI changes a setting the API then serves, and a manual credit reaches the ledger, its reason only the audit log", ALONE.operator, async ({ request }) => {
  // Each CLI command loads wrangler and starts its own workerd on the journeys' database (wrangler's platform proxy):
  // about 30 s each with the machine's load at 30, so eight of them need more than the default journey timeout.
  test.setTimeout(300_000);
  const email = `operator-${Date.now()}@example.com`;
  const reg = await request.post("/api/register/", {
    data: { username: "Adaeze", number: "08031234567", email, password: "secret123" },
  });
  expect(reg.status()).toBe(201);
  const { token } = await reg.json();
  const auth = { authorization: `Bearer ${token}` };

  // rate_settings.rate is served as `crypto_rate` (issue 19: `rate` is the SMS pricing exchange rate).
  const before = (await (await request.get("/api/get-rate", { headers: auth })).json())[0];
  expect(before.crypto_rate).toBeGreaterThan(0);
  restore = async () => {
    // Through the sandbox's settings route, which drops the cached value as it writes: the CLI's way is what this
    // journey checks, and after a CLI write the API may serve the cached value for up to 10 s more (decision 030).
    const res = await request.post("/sandbox/settings/rate_settings", { data: { cryptomin: before.cryptomin, rate: before.crypto_rate, squadmin: before.squadmin } });
    expect(res.ok()).toBe(true);
    await expect
      .poll(async () => (await (await request.get("/api/get-rate", { headers: auth })).json())[0]?.squadmin, { timeout: 20_000 })
      .toBe(before.squadmin);
  };

  expect(admin("set-rate-settings", "--cryptomin", "6", "--rate", "1575", "--squadmin", "1500", "--reason", "new minimums")).toContain("rate_settings updated");
  // Settings are cached per isolate for up to 10 s.
  await expect
    .poll(async () => (await (await request.get("/api/get-rate", { headers: auth })).json())[0]?.squadmin, { timeout: 20_000 })
    .toBe(1500);

  // A reason as an operator types it: several lines, quotes, a semicolon, 2,000 characters. It is stored exactly so, in
  // the audit log only; the customer's history shows the neutral label and the optional message (issues 28, 29: the CLI
  // binds it as a value of drizzle's query, nothing is split on its newlines or `;`).
  const head = `goodwill for a delayed code\nticket #42; the customer's "second" try ${Date.now()}\r\n\t'); DELETE FROM ledger; --\n`;
  const why = head + "x".repeat(2000 - head.length);
  expect(admin("credit", email, "2500", "--reason", why, "--message", "Sorry for the delay")).toContain("credit ₦2500.00");
  const balance = await (await request.get("/api/user-balance", { headers: auth })).json();
  expect(balance.balance).toBe(2500);
  const history = await (await request.get("/api/get-transaction", { headers: auth })).json();
  const rows = Array.isArray(history) ? history : history.data;
  expect(rows[0]).toMatchObject({ status: "successful", amount: 2500, note: "Adjustment by support (deposit): Sorry for the delay" });
  expect(JSON.stringify(rows)).not.toContain("ticket #42");
  const audit = JSON.parse(admin("audit", "--limit", "5", "--json")) as { action: string; reason: string }[];
  expect(audit.find((a) => a.action === "ledger.credit")?.reason).toBe(why);

  const ledger = admin("ledger", email);
  expect(ledger).toContain("Adjustment by support (deposit)");
  expect(admin("reconcile")).toContain("Ledger reconciled");
  expect(admin("audit", "--limit", "5")).toContain("e2e-operator");

  // Issue 31: reconcile-transfers reads our credited transfers of the day and Squad's list (here the running server's
  // Squad simulator). A transfer into the day's own account is credited, then the day is reconciled.
  const transfer = await (await request.post("/api/transfers", { headers: auth, data: { amount: 1500 } })).json();
  expect((await request.post("/sandbox/squad-transfers/send", { data: { account_number: transfer.account_number, kind: "exact" } })).status()).toBe(200);
  await expect.poll(async () => (await (await request.get("/api/user-balance", { headers: auth })).json()).balance, { timeout: 20_000 }).toBe(4000);
  const day = new Date().toISOString().slice(0, 10);
  const cli = (...args: string[]) =>
    spawnSync(path.join("node_modules", ".bin", "tsx"), ["scripts/admin.ts", ...args, "--persist-to", persistTo], { encoding: "utf8", env: { ...process.env, PORT: String(port), WRANGLER_SEND_METRICS: "false" } });
  const reconciled = cli("reconcile-transfers", "--date", day);
  // Other journeys share the day (e.g. an unknown-account transfer): then the command lists each difference and exits 2.
  expect(reconciled.stdout, `exit ${reconciled.status}: ${reconciled.stderr}`).toMatch(new RegExp(`Bank transfers on ${day}: ours [1-9]\\d* \\(₦[\\d,.]+\\), Squad's [1-9]\\d*`));
  if (reconciled.status === 0) expect(reconciled.stdout).toContain("Every credited transfer is in Squad's list");
  else expect([reconciled.status, reconciled.stderr]).toEqual([2, expect.stringMatching(/difference\(s\): look at each in the console/)]);
  const noDay = cli("reconcile-transfers", "--date", "26-11-2026");
  expect([noDay.status, noDay.stderr.trim()]).toEqual([2, "admin: Give the day as --date YYYY-MM-DD."]);
});
