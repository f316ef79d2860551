import { test as base, expect, type APIRequestContext, type BrowserContext, type Page, type TestInfo } from "@playwright/test";
import type { AccountState } from "../schema/accounts";

// What the journeys share: a customer signed up and funded through the API (as a browser would, via the sandbox
// checkout), and a browser signed in the way the app itself signs in (the spec's storage keys).

export type Session = { token: string; user: { userId: string; username: string; userNumber: string; userEmail: string } };

/**
 * The journeys' SMS polling (the operator's sms_poll setting, set once by e2e/global-setup.ts): every second, up to 60
 * times. A code shows within 1 s of arriving (production polls every 6 s; every 2 s here cost each code wait 1 s more on
 * average, about 10 s of the two browsers' time per run: decision 061), and a number without one still waits 60 s, so a
 * journey that acts on a waiting number (cancel it, buy another beside it) does so long before it times out, even on a
 * loaded machine. Only the ALONE.smsPolling journeys change it, and they put it back.
 */
export const JOURNEY_SMS_POLL = { interval_ms: 1000, max_attempts: 60 } as const;

/**
 * Each journey signs up its own customers, so it runs beside another (playwright.config.ts, decisions 059, 060). One that
 * changes what every other journey reads takes one of these tags (`test(title, ALONE.operator, body)`): it runs on a
 * server of its own (the "alone" project), one at a time, the operator's before the SMS polling's (the CLI reads the
 * database the quick timeouts write every second), beside the other journeys on theirs.
 */
export const ALONE = {
  /** The operator CLI (it opens the server's database beside it: two at once contend for it) and the operator's
   * settings (rate settings, ads): admin.spec.ts, console.spec.ts. */
  operator: { tag: "@alone-operator" },
  /** The SMS polling setting's quick timeout and the failover it drives (sms.spec.ts): a number bought beside them
   * would time out as soon, and the routes' learned success rates would move under them. */
  smsPolling: { tag: "@alone-sms-polling" },
} as const;

export async function signUpViaApi(request: APIRequestContext, tag: string, username = "Chidinma"): Promise<Session> {
  const email = `${tag}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
  const reg = await request.post("/api/register/", { data: { username, number: "08031234567", email, password: "secret123" } });
  expect(reg.status()).toBe(201);
  return (await reg.json()) as Session;
}

export async function balanceOf(request: APIRequestContext, token: string): Promise<number> {
  const res = await request.get("/api/user-balance", { headers: { authorization: `Bearer ${token}` } });
  return Number((await res.json()).balance);
}

/** Funds the wallet through the sandbox Squad checkout: a signed webhook, Squad's verify call, one ledger credit. */
export async function fundViaSandbox(request: APIRequestContext, session: Session, naira: number): Promise<void> {
  const before = await balanceOf(request, session.token);
  const init = await request.post("/api/initialize-transaction", {
    headers: { authorization: `Bearer ${session.token}` },
    data: { amount: naira, currency: "NGN" },
  });
  expect(init.ok()).toBe(true);
  const ref = (await init.json()).data.data.transaction_ref as string;
  const done = await request.post(`/sandbox/squad/${encodeURIComponent(ref)}/complete`, { data: { outcome: "success" } });
  expect(done.ok()).toBe(true);
  await expect.poll(async () => balanceOf(request, session.token)).toBe(before + naira);
}

export async function signUpAndFund(request: APIRequestContext, tag: string, naira: number, username?: string): Promise<Session> {
  const session = await signUpViaApi(request, tag, username);
  await fundViaSandbox(request, session, naira);
  return session;
}

/** Signs the browser in (the spec's keys: authToken, userData, auth) with extra storage flags, before any page loads. */
export async function signInBrowser(page: Page, session: Session, flags: Record<string, string> = {}): Promise<void> {
  await page.addInitScript(
    ({ s, flags }) => {
      localStorage.setItem("authToken", s.token);
      localStorage.setItem("userData", JSON.stringify(s.user));
      localStorage.setItem("auth", JSON.stringify(s));
      for (const [key, value] of Object.entries(flags)) localStorage.setItem(key, value);
    },
    { s: session, flags },
  );
}

/**
 * Goes to a signed-in screen (the browser already signed in) and returns once its layout has settled: the shell's
 * notices above the screen ("confirm your e-mail", "change your password") depend on the account state, and a journey
 * that pressed before it arrived pressed where the control had been (a Pay press landed on the field above once the
 * notice pushed the form down; a balance toggle missed the same way).
 */
export async function gotoSettled(page: Page, url: string): Promise<void> {
  const accountState = page.waitForResponse((res) => new URL(res.url()).pathname === "/api/account" && res.request().method() === "GET");
  await page.goto(url);
  const account = (await (await accountState).json()) as AccountState;
  if (!account.email_verified) await expect(page.getByTestId("verify-email-notice")).toBeVisible();
  if (account.password_change_required) await expect(page.getByTestId("password-notice")).toBeVisible();
}

/** Signs the browser in as `session` with the tour already completed and opens `hash` (e.g. "#/sms/1"), settled. */
export async function openSignedIn(page: Page, session: Session, hash: string): Promise<void> {
  await signInBrowser(page, session, { dashboardTourCompleted: "true" });
  await gotoSettled(page, `/${hash}`);
}

/** Picks an option in one of the app's searchable selects, once its options have loaded. */
export async function pick(page: Page, field: string, option: string | RegExp, search?: string): Promise<void> {
  const select = page.getByRole("combobox", { name: field });
  await expect(select).not.toHaveText(/Loading/);
  await select.click();
  if (search) await page.getByRole("searchbox").fill(search);
  await page.getByRole("option", { name: option, exact: typeof option === "string" }).click();
}

/**
 * Every journey fails on any Content-Security-Policy violation (decision 021): a policy that blocks one of our own
 * scripts, styles, images or sockets breaks the app quietly, so the journeys watch each page for the browser's
 * `securitypolicyviolation` events and its "Content Security Policy" console reports. Journeys import `test` from here,
 * never from @playwright/test (scripts/lint.ts holds them to it), so a new journey is watched too.
 */
const watched = new WeakSet<BrowserContext>();
const violations: string[] = [];

async function watchCsp(context: BrowserContext): Promise<void> {
  if (watched.has(context)) return;
  watched.add(context);
  await context.exposeBinding("__reportCspViolation", ({ page }, text: string) => {
    violations.push(`${page.url()}: ${text}`);
  });
  await context.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (e) => {
      const report = (window as unknown as { __reportCspViolation?: (text: string) => void }).__reportCspViolation;
      report?.(`${e.effectiveDirective} blocked ${e.blockedURI || "inline"} at ${e.sourceFile || "?"}:${e.lineNumber}`);
    });
  });
  context.on("console", (msg) => {
    if (/Content Security Policy/i.test(msg.text())) violations.push(`${msg.location().url}: ${msg.text()}`);
  });
}

/**
 * A read the server closed without answering is asked once more, and the journey's report says so. workerd's HTTP
 * server (kj's HttpServer) answers an exception of kind DISCONNECTED by closing the connection with no response, and
 * kj's own comment says why: "A good client should treat this exactly the way it would treat a network failure -- i.e.,
 * retry" (capnproto c++/src/kj/compat/http.c++, handleApplicationError). The app's own reads do (TanStack Query retries
 * a failed query); these are the journeys' reads made beside the browser. Only GET and HEAD (they change nothing), only
 * a connection closed before any answer, once; every other failure and every answer stays the journey's (decision 061).
 * Kept after decision 064 fixed the resets of early-answered POSTs: these are GETs on fresh connections, a different
 * cause still open, and the first full run without this retry met one (a FIN 6 ms after the request, no answer).
 */
function readsAskedAgain(request: APIRequestContext, testInfo: TestInfo): APIRequestContext {
  const closedUnanswered = (error: unknown) => error instanceof Error && /socket hang up|ECONNRESET/.test(error.message);
  const once = async <T>(method: string, url: string, call: () => Promise<T>): Promise<T> => {
    try {
      return await call();
    } catch (error) {
      if (!closedUnanswered(error)) throw error;
      const note = `${method} ${url}: the server closed the connection without an answer; asked once more`;
      console.warn(`  ${testInfo.title}: ${note}`);
      testInfo.annotations.push({ type: "read asked again", description: note });
      return call();
    }
  };
  return new Proxy(request, {
    get(target, property, receiver) {
      if (property === "get" || property === "head") {
        const read = Reflect.get(target, property, receiver) as APIRequestContext["get"];
        return (url: string, options?: Parameters<APIRequestContext["get"]>[1]) =>
          once(String(property).toUpperCase(), url, () => read.call(target, url, options));
      }
      const value = Reflect.get(target, property, receiver) as unknown;
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

export const test = base.extend<{ cspGuard: void }>({
  // Contexts a journey opens itself (browser.newContext: a second customer, a phone-sized viewport) are watched too.
  cspGuard: [
    async ({ browser }, use) => {
      violations.length = 0;
      const newContext = browser.newContext.bind(browser);
      browser.newContext = async (...args: Parameters<typeof newContext>) => {
        const context = await newContext(...args);
        await watchCsp(context);
        return context;
      };
      try {
        await use();
      } finally {
        browser.newContext = newContext;
      }
      expect(violations, "Content-Security-Policy violations").toEqual([]);
    },
    { auto: true },
  ],
  context: async ({ context }, use) => {
    await watchCsp(context);
    await use(context);
  },
  // The journeys' API calls ask for a fresh connection each time. With keep-alive, a call made after about 5 idle seconds
  // could reuse a connection workerd had just closed (it closes idle ones after 5 s and sends no Keep-Alive hint) and
  // fail with ECONNRESET ("socket hang up"): a race in the test's transport, not an answer of the app.
  request: async ({ playwright, baseURL }, use, testInfo) => {
    const request = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { connection: "close" } });
    await use(readsAskedAgain(request, testInfo));
    await request.dispose();
  },
});

export { expect };

