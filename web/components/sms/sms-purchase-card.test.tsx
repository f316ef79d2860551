import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import type { ReactNode } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { saveSession } from "../../lib/session";
import { OtherNumbers } from "./other-numbers";
import type { PendingSmsRequest } from "./pending-request";
import { SmsPurchaseCard } from "./sms-purchase-card";

// "Several numbers at once" with "if no code comes, try another number" (issue 17; docs/decisions/026): the choice is
// offered for any quantity, sent with the several-numbers purchase, and every number of it follows its own chain.

const posts: { url: string; body: Record<string, unknown> }[] = [];
const offers: string[] = [];
let statusById: Record<string, unknown> = {};

const route = (country_id: string, country: string, price: number) => ({
  provider: "Dynamic",
  country_id,
  country,
  service_id: "1",
  service: "WhatsApp",
  price,
  count: 40,
  sample: 0,
  stats: null,
});

function json(body: unknown, status = 200) {
  return Promise.resolve(new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } }));
}

function fakeFetch(input: RequestInfo | URL, init?: RequestInit) {
  const url = String(input);
  if (init?.method === "POST") {
    posts.push({ url, body: JSON.parse(String(init.body)) });
    if (url.endsWith("/api/sms/get-number")) return json({ phone: { request_id: "ord_9", number: "+12125550101" }, table: { purchased_number: "+12125550101", sms: null, reference_code: "ord_9" }, debitRef: "buy:ord_9", price: 1680 });
    const orders = [1, 2, 3].map((n) => ({ phone: { request_id: `ord_${n}`, number: `+1555000000${n}` }, debitRef: `buy:ord_${n}`, price: 1200 }));
    return json({ orders, requested: 3, error: null });
  }
  if (url.includes("/api/sms/offer")) {
    offers.push(url);
    const q = new URL(url, "http://x").searchParams;
    const surcharge = (q.get("carriers") ? 20 : 0) + (q.get("areas") ? 20 : 0);
    return json({
      provider: "Swift", country_id: "5", country: "USA", service_id: "wa", service: "WhatsApp",
      price: 1200 * (1 + surcharge / 100), base_price: 1200, surcharge_percent: surcharge,
      choices: { carriers: { options: [{ value: "tmo", label: "T-Mobile" }, { value: "vz", label: "Verizon" }], surcharge_percent: 20 }, areas: { max: 10, surcharge_percent: 20 } },
      record: { sample: 120, success_rate: 88, median_seconds_to_code: 50 }, min_sample: 30, window_days: 7, better: null,
    });
  }
  if (url.includes("/api/sms/countries")) return json([{ id: "5", title: "USA" }]);
  if (url.includes("/api/sms/price")) return json({ wa: { country_id: "5", application_id: "wa", application: "WhatsApp", cost: 50, count: 99, price: 1200 } });
  if (url.includes("/api/user-balance")) return json({ balance: 100_000 });
  if (url.includes("/api/sms/favourites")) return json({ favourites: [] });
  if (url.includes("/api/sms/compare")) {
    return json({ service: "WhatsApp", min_sample: 20, window_days: 7, routes: [route("13", "India", 500), route("12", "Nigeria", 900), route("11", "United Kingdom", 3000)] });
  }
  const status = Object.entries(statusById).find(([id]) => url.endsWith(`/api/sms/status/${id}`));
  if (status) return json(status[1]);
  return json({});
}

function wrap(children: ReactNode) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}

/** Opens a labelled select (the combobox pattern) and picks the option whose text starts with `option`. */
async function choose(label: string, option: string) {
  fireEvent.click(screen.getByRole("combobox", { name: label }));
  const listbox = await screen.findByRole("listbox");
  fireEvent.click(within(listbox).getByRole("option", { name: new RegExp(`^${option}`) }));
}

beforeEach(() => {
  posts.length = 0;
  offers.length = 0;
  statusById = {};
  vi.stubGlobal("fetch", vi.fn(fakeFetch));
  // jsdom lays nothing out: the select keeps its active option in view with scrollIntoView, which jsdom lacks.
  Element.prototype.scrollIntoView = () => undefined;
  saveSession({ userId: "u1", username: "Ada", userNumber: "08012345678", userEmail: "ada@example.com" }, "token-a");
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe("several numbers with 'try another number'", () => {
  it("stays available for 3 numbers: the routes and cap show, and the purchase sends next_route with the quantity", { timeout: 30_000 }, async () => {
    const purchased: PendingSmsRequest[] = [];
    render(wrap(<SmsPurchaseCard shown={null} onPurchased={(r) => purchased.push(r)} onUnexpectedError={() => undefined} />));
    // The catalogue's queries settle in a few ticks, but on a loaded machine (8 suites on 2 cores) that took over
    // waitFor's default 1 s: wait as long as the journeys' expectations do.
    await waitFor(() => expect(screen.getByRole("combobox", { name: "Service" }).textContent).toContain("Select a service"), { timeout: 15_000 });
    await choose("Service", "WhatsApp");
    await choose("How many numbers", "3 numbers");

    fireEvent.click(screen.getByTestId("sms-try-next"));
    expect(screen.getByTestId("sms-try-next-hint").textContent).toMatch(/Each of your 3 numbers tries on its own/);
    // The cap defaults to this number's price (₦1,200): India and Nigeria are within it, the UK is not.
    const routes = await screen.findByTestId("sms-next-routes");
    await waitFor(() => expect(within(routes).getAllByRole("checkbox")).toHaveLength(2));
    // The customer leaves Nigeria out: only India may be tried.
    fireEvent.click(within(routes).getByRole("checkbox", { name: /Nigeria/ }));

    fireEvent.click(screen.getByRole("button", { name: "Get 3 Numbers" }));
    await waitFor(() => expect(posts).toHaveLength(1));
    expect(posts[0].url).toMatch(/\/api\/sms\/get-numbers$/);
    expect(posts[0].body).toMatchObject({
      provider: "Swift",
      country: "5",
      service: "wa",
      quantity: 3,
      next_route: { cap: 1200, routes: [{ provider: "Dynamic", country: "13" }] },
    });
    await waitFor(() => expect(purchased).toHaveLength(1));
    expect(purchased[0].request_id).toBe("ord_1");
    expect(purchased[0].others?.map((o) => o.request_id)).toEqual(["ord_2", "ord_3"]);
  });

  it("the other numbers follow their own chain: one that moved on shows its next number, waiting, not a timeout", async () => {
    const chain = { id: "ord_2", step: 1, max_routes: 3, cap: 1200, status: "active", moving_on: false };
    statusById = {
      ord_2: { state: "timeout", phase: "waiting", sms: "SMS polling timed out, code not sent.", number: "+15550000002", chain: { ...chain, next_request_id: "ord_7" } },
      ord_7: { state: "used", phase: "received", sms: "731904", sms_code: "731904", number: "+2347012345678", chain: { ...chain, step: 2, status: "ended", next_request_id: null } },
      ord_3: { state: "waiting", phase: "waiting", sms: null, number: "+15550000003", chain: null },
    };
    render(wrap(<OtherNumbers others={[{ request_id: "ord_2", number: "+15550000002" }, { request_id: "ord_3", number: "+15550000003" }]} />));
    expect(await screen.findAllByTestId("sms-other-number")).toHaveLength(2);
    // ord_2 gave no code, its chain moved on to ord_7 (another number), which received one: that is what shows.
    await waitFor(() => expect(screen.getAllByTestId("sms-other-number")[0].textContent).toContain("731904"));
    const rows = screen.getAllByTestId("sms-other-number");
    expect(rows[0].textContent).toMatch(/\+234/);
    expect(rows[0].textContent).toMatch(/Number 2 of up to 3/);
    expect(rows[0].textContent).not.toMatch(/Timeout/);
    expect(rows[1].textContent).not.toMatch(/Number \d of/);
  });
});

describe("choose the number that works (issue 49)", () => {
  it("a T-Mobile number in area code 212: the record beside the price, the surcharge said first, the choice and its price sent", { timeout: 30_000 }, async () => {
    const purchased: PendingSmsRequest[] = [];
    render(wrap(<SmsPurchaseCard shown={null} onPurchased={(r) => purchased.push(r)} onUnexpectedError={() => undefined} />));
    await waitFor(() => expect(screen.getByRole("combobox", { name: "Service" }).textContent).toContain("Select a service"), { timeout: 15_000 });
    await choose("Service", "WhatsApp");
    await waitFor(() => expect(screen.getByTestId("sms-offer-record").textContent).toBe("88% got a code in the last 7 days, typically in 50 s (from 120 orders)."), { timeout: 15_000 });
    await choose("Carrier (optional)", "T-Mobile");
    fireEvent.change(screen.getByTestId("sms-area-codes"), { target: { value: "212" } });
    await waitFor(() => expect(screen.getByTestId("sms-choice-surcharge").textContent).toBe("Your choice costs 40% more (the provider's own charge): ₦1,680.00 instead of ₦1,200.00."));
    expect(offers.at(-1)).toMatch(/carriers=tmo/);
    expect(offers.at(-1)).toMatch(/areas=212/);

    fireEvent.click(screen.getByRole("button", { name: "Get Number" }));
    await waitFor(() => expect(posts).toHaveLength(1));
    expect(posts[0].url).toMatch(/\/api\/sms\/get-number$/);
    expect(posts[0].body).toMatchObject({ provider: "Swift", country: "5", service: "wa", price: 1680, carriers: "tmo", areas: "212" });
    await waitFor(() => expect(purchased).toHaveLength(1));
  });
});
