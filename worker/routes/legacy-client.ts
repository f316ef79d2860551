import { codeSuccess } from "../contract/legacy-client";
import { routeApp, type RouteApp } from "./route-app";

/**
 * The spec's original web client's one call outside /api (issue 27, decision 032): after showing a code it posts
 * `{ debitRef }` to /sms/code-success and ignores the answer. Outcomes and money are the server's (decision 003), so
 * this answers 200 `{}` and has no effect: it reads neither the body nor a token and touches no table or upstream.
 * Hence no auth (a 401 would make that client sign its customer out for nothing) and no rate limit (there is nothing
 * to spend); the body limit and CORS of app.ts apply as everywhere.
 */
export const legacyClientRoutes: RouteApp = routeApp().openapi(codeSuccess, (c) => c.json({}));
