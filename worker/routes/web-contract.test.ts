import { describe, expectTypeOf, it } from "vitest";
import type { SmsCompareResponse, SmsStatusResponse } from "../../schema/sms";
import type { DataOf } from "../../schema/web-api";
import type { AdminList, AdminMe, ReviewQueueItem } from "../../schema/admin";
import type { ConsoleApi, ContractProblems } from "./web-contract";

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

  it("holds the console's contract against adminRoutes the same way (decision 053)", () => {
    interface WrongConsole {
      "GET /api/admin/me": { answer: AdminMe };
      "GET /api/admin/reviews": { query: { status?: "waiting" }; answer: AdminList<ReviewQueueItem> };
      "GET /api/admin/overview": { answer: { moneyHeld: string } };
      "POST /api/admin/customers/:id/block": { body: { why: string }; answer: { message: string; blocked: boolean } };
      "POST /api/admin/orders/:id/settle": { answer: { settled: boolean } };
      "DELETE /api/admin/status-incidents/:id": { answer: { message: string } };
      // The customer's routes are not the console's: a customer path is "no such route" against ConsoleApi.
      "GET /api/orders": { answer: { data: unknown[] } };
    }
    expectTypeOf<ContractProblems<WrongConsole, ConsoleApi>>().toEqualTypeOf<{
      "GET /api/admin/reviews": "GET /api/admin/reviews: the declared query is not what the route validates";
      "GET /api/admin/overview": "GET /api/admin/overview: the worker's answer is not the declared answer";
      "POST /api/admin/customers/:id/block": "POST /api/admin/customers/:id/block: the declared body is not what the route validates";
      "POST /api/admin/orders/:id/settle": "POST /api/admin/orders/:id/settle: the route validates a JSON body the contract does not declare";
      "DELETE /api/admin/status-incidents/:id": "DELETE /api/admin/status-incidents/:id: no such route on the worker";
      "GET /api/orders": "GET /api/orders: no such route on the worker";
    }>();
  });
});
