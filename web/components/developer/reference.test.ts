import { describe, expect, it } from "vitest";
import { jsExample, readReference } from "./reference";

// The shape the worker's OpenAPI document gives POST /sms/orders (worker/routes/api-v1.reference.test.ts reads the
// real document); here the example is run as a program to prove it works as written.
const doc = {
  openapi: "3.1.0",
  info: { title: "T", version: "1", description: "D" },
  servers: [{ url: "https://numbers.example.ng/api/v1" }],
  paths: {
    "/sms/orders": {
      post: {
        operationId: "postSmsOrders",
        summary: "Buy a number",
        parameters: [{ name: "Idempotency-Key", in: "header", required: true, schema: { type: "string" } }],
        requestBody: {
          content: {
            "application/json": {
              schema: {
                type: "object",
                properties: { provider: { type: "string", enum: ["Swift", "Dynamic"], default: "Swift" }, service: { type: "string", examples: ["wa"] } },
                required: ["service"],
              },
            },
          },
        },
        responses: { "201": { description: "OK" } },
      },
    },
  },
};

describe("the reference page's JavaScript example", () => {
  it("runs as written and sends the request the API expects", async () => {
    const ref = readReference(doc);
    const sent: { url: string; init: RequestInit }[] = [];
    const fakeFetch = async (url: string, init: RequestInit) => {
      sent.push({ url, init });
      return new Response(JSON.stringify({ id: "o1" }), { status: 201 });
    };
    const AsyncFunction = Object.getPrototypeOf(async () => undefined).constructor as new (...args: string[]) => (...a: unknown[]) => Promise<unknown>;
    const run = new AsyncFunction("fetch", "process", "crypto", `${jsExample(ref, ref.operations[0])}\nreturn data;`);
    const data = await run(fakeFetch, { env: { VNUM_KEY: "sk_test_example" } }, { randomUUID: () => "uuid-1" });
    expect(data).toEqual({ id: "o1" });
    expect(sent[0].url).toBe("https://numbers.example.ng/api/v1/sms/orders");
    expect(sent[0].init.method).toBe("POST");
    expect(sent[0].init.headers).toMatchObject({ Authorization: "Bearer sk_test_example", "Idempotency-Key": "uuid-1", "Content-Type": "application/json" });
    expect(JSON.parse(String(sent[0].init.body))).toEqual({ service: "wa" });
  });
});
