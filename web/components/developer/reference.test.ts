import { describe, expect, it } from "vitest";
import { v1BalanceSchema, v1BuySmsSchema, v1ErrorSchema, v1IdParamSchema, v1SmsOrderSchema } from "../../../schema/api-v1";
import { OpenApiRegistry } from "../../../worker/lib/openapi";
import { curlExample, jsExample, readReference } from "./reference";

// The reference page reads the document the worker generates with the same registry and the same zod schemas.
function documentLikeTheWorkers() {
  const registry = new OpenApiRegistry(v1ErrorSchema);
  registry.add({ method: "get", path: "/balance", summary: "Your wallet balance", response: v1BalanceSchema });
  registry.add({ method: "post", path: "/sms/orders", summary: "Buy a number", body: v1BuySmsSchema, response: v1SmsOrderSchema, status: 201, errors: [402] });
  registry.add({ method: "get", path: "/sms/orders/{id}", summary: "An order", params: v1IdParamSchema, response: v1SmsOrderSchema, errors: [404] });
  return JSON.parse(JSON.stringify(registry.document({ title: "T", version: "1", description: "D" }, "https://numbers.example.ng/api/v1")));
}

describe("the API reference page's reading of the OpenAPI document", () => {
  it("lists every operation with its parameters, body fields and answers", () => {
    const ref = readReference(documentLikeTheWorkers());
    expect(ref.baseUrl).toBe("https://numbers.example.ng/api/v1");
    expect(ref.operations.map((o) => `${o.method} ${o.path}`)).toEqual(["get /balance", "post /sms/orders", "get /sms/orders/{id}"]);
    const buy = ref.operations[1];
    expect(buy.params.map((p) => [p.name, p.in, p.required])).toEqual([["Idempotency-Key", "header", true]]);
    expect(buy.body?.find((f) => f.name === "service")).toMatchObject({ required: true, type: "string" });
    expect(buy.body?.find((f) => f.name === "max_price")?.required).toBe(false);
    expect(buy.responses.map((r) => r.status)).toEqual(["201", "401", "402", "429"]);
    expect(buy.responses.find((r) => r.status === "402")?.description).toMatch(/INSUFFICIENT_BALANCE/);
    expect(ref.operations[2].params[0]).toMatchObject({ name: "id", in: "path", required: true });
  });

  it("curl examples use the document's server URL (PUBLIC_URL), the key variable and an Idempotency-Key on POSTs", () => {
    const ref = readReference(documentLikeTheWorkers());
    expect(curlExample(ref, ref.operations[0])).toBe('curl "https://numbers.example.ng/api/v1/balance" \\\n  -H "Authorization: Bearer $VNUM_KEY"');
    const buy = curlExample(ref, ref.operations[1]);
    expect(buy).toContain('curl -X POST "https://numbers.example.ng/api/v1/sms/orders"');
    expect(buy).toContain('-H "Idempotency-Key: $(uuidgen)"');
    expect(buy).toContain(`-d '{"service":"wa"}'`);
    expect(curlExample(ref, ref.operations[2])).toContain("/sms/orders/ORDER_ID");
  });

  it("the JavaScript example runs as written and sends the request the API expects", async () => {
    const ref = readReference(documentLikeTheWorkers());
    const sent: { url: string; init: RequestInit }[] = [];
    const fakeFetch = async (url: string, init: RequestInit) => {
      sent.push({ url, init });
      return new Response(JSON.stringify({ id: "o1" }), { status: 201 });
    };
    const AsyncFunction = Object.getPrototypeOf(async () => undefined).constructor as new (...args: string[]) => (...a: unknown[]) => Promise<unknown>;
    const run = new AsyncFunction("fetch", "process", "crypto", `${jsExample(ref, ref.operations[1])}\nreturn data;`);
    const data = await run(fakeFetch, { env: { VNUM_KEY: "sk_test_example" } }, { randomUUID: () => "uuid-1" });
    expect(data).toEqual({ id: "o1" });
    expect(sent[0].url).toBe("https://numbers.example.ng/api/v1/sms/orders");
    expect(sent[0].init.method).toBe("POST");
    expect(sent[0].init.headers).toMatchObject({ Authorization: "Bearer sk_test_example", "Idempotency-Key": "uuid-1", "Content-Type": "application/json" });
    expect(JSON.parse(String(sent[0].init.body))).toEqual({ service: "wa" });
  });
});
