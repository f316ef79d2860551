import { describe, expect, it } from "vitest";
import { extractCode, parseSmsList, SmsManRentProvider } from "./sms-man-rent";
import { RentProviderError } from "./types";

/** A protocol fake: answers each rent-API method with a scripted reply and records what it was asked. */
function fake(reply: (url: URL) => Response | Promise<Response>) {
  const calls: URL[] = [];
  const provider = new SmsManRentProvider({
    baseUrl: "https://fake.sms-man.test/",
    token: "tok-123",
    timeoutMs: 50,
    fetch: async (req) => {
      const url = new URL(req.url);
      calls.push(url);
      return reply(url);
    },
  });
  return { provider, calls };
}
const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

async function failure(p: Promise<unknown>): Promise<RentProviderError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(RentProviderError);
  return err as RentProviderError;
}

const choice = { countryId: "5", unit: "hour" as const, period: 4 };

describe("sms-man rent adapter", () => {
  it("asks limits with the documented parameters only, reads the account's currency, and keeps only the asked country", async () => {
    const { provider, calls } = fake(() =>
      json({ type: "hour", time: "4", limits: [{ country_id: "5", count: "127", cost: "1.68" }, { country_id: "7", count: "3", cost: "2" }] }),
    );
    expect(await provider.limits(choice)).toEqual([{ countryId: "5", count: 127, cost: 1.68, currency: "RUB" }]);
    const url = calls[0];
    expect(url.pathname).toBe("/rent-api/limits");
    // No currency parameter: the rent API documents none (https://sms-man.com/api/rent).
    expect(Object.fromEntries(url.searchParams)).toEqual({ token: "tok-123", country_id: "5", type: "hour", time: "4" });
  });

  it("reads an empty limits list and a no_numbers error as no stock", async () => {
    expect(await fake(() => json({ type: "hour", time: "4", limits: [] })).provider.limits(choice)).toEqual([]);
    expect(await fake(() => json({ success: false, error_code: "no_numbers" })).provider.limits(choice)).toEqual([]);
  });

  it("rents a number and reports no stock as a no_stock error", async () => {
    const ok = fake(() => json({ request_id: 77, country_id: 5, number: "15550001111" }));
    expect(await ok.provider.getNumber(choice)).toEqual({ upstreamId: "77", number: "15550001111" });
    expect(ok.calls[0].pathname).toBe("/rent-api/get-number");
    const none = await failure(fake(() => json({ success: false, error_code: "no_numbers", error_msg: "No numbers" })).provider.getNumber(choice));
    expect(none.kind).toBe("no_stock");
  });

  it("maps the upstream's error codes, including an object error_msg", async () => {
    const token = await failure(fake(() => json({ success: false, error_code: "wrong_token", error_msg: { en: "Wrong token" } })).provider.getNumber(choice));
    expect(token.kind).toBe("account");
    expect(token.message).toContain("Wrong token");
    const balance = await failure(fake(() => json({ success: false, error_code: "balance" })).provider.getNumber(choice));
    expect(balance.kind).toBe("account");
    const status = await failure(fake(() => json({ success: false, error_code: "wrong_status" })).provider.setStatus("1", "cancel"));
    expect(status.kind).toBe("refused");
  });

  it("reads error words from the one sms-man table the activation adapter reads (no word-list of its own)", async () => {
    const word = (code: string) => fake(() => json({ success: false, error_code: code, error_msg: "x" })).provider;
    // Every no-stock word is an empty list on limits and no_stock on get-number.
    for (const code of ["no_numbers", "no_number", "no_free_numbers", "numbers_not_found", "no_stock"]) {
      expect(await word(code).limits(choice), code).toEqual([]);
      expect((await failure(word(code).getNumber(choice))).kind, code).toBe("no_stock");
    }
    // Our own key or money: the operator's problem, never blamed on the customer.
    for (const code of ["wrong_token", "bad_key", "balance", "no_balance", "not_enough_balance"]) {
      const err = await failure(word(code).getNumber(choice));
      expect(err.kind, code).toBe("account");
      expect(err.upstreamCode, code).toBe(code);
    }
    expect((await failure(word("server_error").getNumber(choice))).kind).toBe("unavailable");
    expect((await failure(word("wrong_request_id").setStatus("1", "cancel"))).kind).toBe("refused");
    expect((await failure(word("something_new").getNumber(choice))).kind).toBe("refused");
    // {"success":false} without a word is still a refusal, never read as an answer.
    expect((await failure(fake(() => json({ success: false })).provider.getNumber(choice))).kind).toBe("refused");
    // A word on a limits reply that is not about stock is a failure, not "no stock".
    expect((await failure(word("wrong_token").limits(choice))).kind).toBe("account");
  });

  it("a 5xx or 429 is unavailable whatever its body says (the upstream is down or throttling)", async () => {
    expect((await failure(fake(() => json({ success: false, error_code: "no_numbers" }, 503)).provider.getNumber(choice))).kind).toBe("unavailable");
    expect((await failure(fake(() => json({ limits: [] }, 429)).provider.limits(choice))).kind).toBe("unavailable");
  });

  it("treats HTML, garbage and unexpected JSON as bad replies, and 5xx pages as unavailable", async () => {
    expect((await failure(fake(() => new Response("<html>maintenance</html>", { status: 200 })).provider.limits(choice))).kind).toBe("bad_reply");
    expect((await failure(fake(() => new Response("<html>502 Bad Gateway</html>", { status: 502 })).provider.limits(choice))).kind).toBe("unavailable");
    expect((await failure(fake(() => json({ limits: "lots" })).provider.limits(choice))).kind).toBe("bad_reply");
    expect((await failure(fake(() => json({ limits: [{ country_id: "5", count: "x", cost: "1" }] })).provider.limits(choice))).kind).toBe("bad_reply");
    expect((await failure(fake(() => json({ request_id: 1 })).provider.getNumber(choice))).kind).toBe("bad_reply");
    expect((await failure(fake(() => json("just a string")).provider.getAllSms("1"))).kind).toBe("bad_reply");
  });

  it("gives up after its timeout, even when the upstream never answers", async () => {
    const { provider } = fake(() => new Promise<Response>(() => {}));
    const err = await failure(provider.limits(choice));
    expect(err.kind).toBe("timeout");
  });

  it("reports a network failure as unavailable", async () => {
    const { provider } = fake(() => {
      throw new TypeError("fetch failed");
    });
    expect((await failure(provider.getAllSms("1"))).kind).toBe("unavailable");
  });

  it("reads wait_sms as no messages yet and parses the messages it gets", async () => {
    expect(await fake(() => json({ request_id: 1, error_code: "wait_sms" })).provider.getAllSms("1")).toEqual([]);
    const { provider, calls } = fake(() =>
      json({ request_id: 1, sms: [{ id: 9, sender: "WhatsApp", text: "Your code 123-456", date: "2025-01-02 10:11:12" }] }),
    );
    const [sms] = await provider.getAllSms("1");
    expect(calls[0].searchParams.get("request_id")).toBe("1");
    expect(sms).toMatchObject({ upstreamId: "9", fingerprint: "id:9", sender: "WhatsApp", code: "123456", receivedAt: Date.UTC(2025, 0, 2, 10, 11, 12) });
  });

  it("accepts the other message shapes and keeps a stable fingerprint without an upstream id", () => {
    const one = { sms_from: "Google", sms_text: "G-884512 is your code", sms_code: "884512", created_at: 1735812672 };
    const a = parseSmsList(one);
    const b = parseSmsList({ data: [one] });
    expect(a).toHaveLength(1);
    expect(a[0]).toMatchObject({ sender: "Google", code: "884512", receivedAt: 1735812672000 });
    expect(a[0].fingerprint).toBe(b[0].fingerprint);
    expect(parseSmsList([])).toEqual([]);
    expect(parseSmsList({ request_id: 1, sms: null })).toEqual([]);
  });

  it("confirms set-status and refuses an unconfirmed one", async () => {
    const ok = fake(() => json({ request_id: 1, success: true }));
    await ok.provider.setStatus("1", "close");
    expect(Object.fromEntries(ok.calls[0].searchParams)).toMatchObject({ request_id: "1", status: "close" });
    expect((await failure(fake(() => json({ request_id: 1 })).provider.setStatus("1", "cancel"))).kind).toBe("refused");
  });

  it("extracts codes from message text", () => {
    expect(extractCode("Your code is 4821")).toBe("4821");
    expect(extractCode("Use 123 456 to sign in")).toBe("123456");
    expect(extractCode("No digits here")).toBeNull();
  });
});
