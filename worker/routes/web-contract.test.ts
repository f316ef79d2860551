import { describe, expectTypeOf, it } from "vitest";
import type { SmsCompareResponse, SmsStatusResponse } from "../../schema/sms";
import type { DataOf } from "../../schema/web-api";
import type { ContractProblems } from "./web-contract";

// Issue 29 (decision 043): the web's contract is checked against the worker's routes by the compiler. These are type
// tests (`tsc -b` fails when one does not hold): a contract that is wrong in each way the check knows is reported, route
// by route, and a right one is not.
describe("the web contract check", () => {
  it("reports each kind of mismatch by route, and nothing for entries that hold", () => {
    interface Wrong {
      "GET /api/orders": { answer: DataOf<SmsStatusResponse[]> };
      "POST /api/rentals/:id/ends": { answer: { refunded: boolean } };
      "GET /api/sms/compare": { query: { provider: number; service: string }; answer: unknown };
      "POST /api/sms/another-code": { answer: { codes: string[] } };
      "POST /api/sms/get-number": { body: { provider: "Swift"; country: boolean }; answer: { price: number } };
      "GET /api/sms/hold-time": { answer: { seconds: number } };
    }
    expectTypeOf<ContractProblems<Wrong>>().toEqualTypeOf<{
      "GET /api/orders": "GET /api/orders: the worker's answer is not the declared answer";
      "POST /api/rentals/:id/ends": "POST /api/rentals/:id/ends: no such route on the worker";
      "GET /api/sms/compare": "GET /api/sms/compare: the declared answer must be a shape, not unknown";
      "POST /api/sms/another-code": "POST /api/sms/another-code: the route validates a JSON body the contract does not declare";
      "POST /api/sms/get-number": "POST /api/sms/get-number: the declared body is not what the route validates";
    }>();
  });

  it("reports a query the route's validator does not accept", () => {
    interface WrongQuery {
      "GET /api/sms/compare": { query: { provider: number; service: string }; answer: SmsCompareResponse };
      "GET /api/sms/countries": { query: { provider: "Swift" }; answer: { id: string; title: string }[] };
    }
    expectTypeOf<ContractProblems<WrongQuery>>().toEqualTypeOf<{
      "GET /api/sms/compare": "GET /api/sms/compare: the declared query is not what the route validates";
    }>();
  });
});
