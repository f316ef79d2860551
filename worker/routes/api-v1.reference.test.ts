import { describe, expect, it } from "vitest";
import { curlExample, jsExample, readReference } from "../../web/components/developer/reference";
import { apiV1Routes, v1Document } from "./api-v1";

// The app's #/developers page (web/components/developer/reference.ts) reads the very document this worker serves; the
// server URL is the configured PUBLIC_URL (here a stand-in for it).
function documentLikeTheWorkers() {
  return JSON.parse(JSON.stringify(v1Document("https://numbers.example.ng/api/v1")));
}
const operations = () =>
  apiV1Routes.openAPIRegistry.definitions.flatMap((d) => (d.type === "route" ? [`${d.route.method} ${d.route.path}`] : []));

describe("the API reference page's reading of the OpenAPI document", () => {
  it("lists every v1 operation with its parameters, body fields and answers", () => {
    const ref = readReference(documentLikeTheWorkers());
    expect(ref.baseUrl).toBe("https://numbers.example.ng/api/v1");
    // Every operation, PUT and DELETE included (grouped by path, as the document keys them).
    expect(ref.operations.map((o) => `${o.method} ${o.path}`).sort()).toEqual(operations().sort());
    const buy = ref.operations.find((o) => o.method === "post" && o.path === "/sms/orders")!;
    expect(buy.params.map((p) => [p.name, p.in, p.required])).toEqual([["Idempotency-Key", "header", true]]);
    expect(buy.body?.find((f) => f.name === "service")).toMatchObject({ required: true, type: "string" });
    expect(buy.body?.find((f) => f.name === "max_price")?.required).toBe(false);
    expect(buy.responses.map((r) => r.status)).toEqual(expect.arrayContaining(["201", "401", "402", "429"]));
    expect(buy.responses.find((r) => r.status === "402")?.description).toMatch(/INSUFFICIENT_BALANCE/);
    const one = ref.operations.find((o) => o.path === "/sms/orders/{id}")!;
    expect(one.params[0]).toMatchObject({ name: "id", in: "path", required: true });
  });

  it("curl examples use the document's server URL (PUBLIC_URL), the key variable and an Idempotency-Key on POSTs", () => {
    const ref = readReference(documentLikeTheWorkers());
    const op = (method: string, path: string) => ref.operations.find((o) => o.method === method && o.path === path)!;
    expect(curlExample(ref, op("get", "/balance"))).toBe('curl "https://numbers.example.ng/api/v1/balance" \\\n  -H "Authorization: Bearer $VNUM_KEY"');
    const buy = curlExample(ref, op("post", "/sms/orders"));
    expect(buy).toContain('curl -X POST "https://numbers.example.ng/api/v1/sms/orders"');
    expect(buy).toContain('-H "Idempotency-Key: $(uuidgen)"');
    expect(buy).toContain(`-d '{"service":"wa"}'`);
    expect(curlExample(ref, op("get", "/sms/orders/{id}"))).toContain("/sms/orders/ORDER_ID");
    expect(curlExample(ref, op("post", "/rentals"))).toContain(`-d '{"country":"5","duration":"hour","period":1}'`);
    expect(curlExample(ref, op("get", "/rentals/{id}"))).toContain("/rentals/RENTAL_ID");
    // PUT sends its body without an Idempotency-Key; DELETE sends none.
    const put = curlExample(ref, op("put", "/webhook"));
    expect(put).toContain('curl -X PUT "https://numbers.example.ng/api/v1/webhook"');
    expect(put).toContain(`-d '{"url":"https://bot.example.com/virtualnum"}'`);
    expect(put).not.toContain("Idempotency-Key");
    expect(curlExample(ref, op("delete", "/webhook"))).toBe('curl -X DELETE "https://numbers.example.ng/api/v1/webhook" \\\n  -H "Authorization: Bearer $VNUM_KEY"');
    expect(jsExample(ref, op("delete", "/webhook"))).toContain('method: "DELETE"');
    // The JavaScript twin says the same (web/components/developer/reference.test.ts runs one).
    expect(jsExample(ref, op("post", "/sms/orders"))).toContain('body: JSON.stringify({"service":"wa"})');
  });
});
