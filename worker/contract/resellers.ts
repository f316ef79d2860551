import type { DataOf } from "../../schema/answers";
import { v1SetMarkupsSchema, type V1Markups, type V1Subaccount } from "../../schema/api-v1";
import { acceptResellerTermsSchema, type ResellerView } from "../../schema/resellers";
import { answer, jsonBody, route } from "./kit";

/** Settings "Reseller" and the partner dashboard (issue 46), mounted at /api (routes/resellers.ts). */

export const reseller = route({ method: "get", path: "/reseller", responses: { 200: answer<ResellerView>() } });

export const becomeReseller = route({
  method: "post",
  path: "/reseller",
  request: { body: jsonBody(acceptResellerTermsSchema) },
  responses: { 200: answer<ResellerView>("The customer is a reseller from now") },
});

/** The partner dashboard's sub-accounts: live ones (the customer's own wallet's), newest first. */
export const resellerSubaccounts = route({ method: "get", path: "/reseller/subaccounts", responses: { 200: answer<DataOf<V1Subaccount[]>>() } });

/**
 * The partner page's markup form (decision 076): the signed-in reseller's markups, the very service and validation of
 * GET|PUT /api/v1/markups (the same body, the same ceiling, the same 400 naming the field), for the web's session.
 */
export const resellerMarkups = route({ method: "get", path: "/reseller/markups", responses: { 200: answer<V1Markups>() } });

export const setResellerMarkups = route({
  method: "put",
  path: "/reseller/markups",
  request: { body: jsonBody(v1SetMarkupsSchema) },
  responses: { 200: answer<V1Markups>("The markups, replaced whole") },
});
