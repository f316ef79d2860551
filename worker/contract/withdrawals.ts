import type { DataOf } from "../../schema/answers";
import {
  payoutAccountSchema,
  withdrawalIdParamSchema,
  withdrawSchema,
  type PayoutAccountView,
  type WithdrawableView,
  type WithdrawalView,
} from "../../schema/withdrawals";
import { answer, jsonBody, route } from "./kit";

/**
 * Cash out (issue 45, docs/decisions/071), mounted at /api (routes/withdrawals.ts): the payout account, what may be
 * withdrawn, a withdrawal and its state. Signed-in only; adding an account and withdrawing need a fresh second factor
 * (403 STEP_UP_REQUIRED), another customer's withdrawal is 404.
 */

export const withdrawable = route({ method: "get", path: "/withdrawals/available", responses: { 200: answer<WithdrawableView>() } });

export const savePayoutAccount = route({
  method: "post",
  path: "/withdrawals/account",
  request: { body: jsonBody(payoutAccountSchema) },
  responses: { 200: answer<DataOf<PayoutAccountView>>() },
});

export const withdraw = route({
  method: "post",
  path: "/withdrawals",
  request: { body: jsonBody(withdrawSchema) },
  responses: { 200: answer<WithdrawalView>() },
});

export const withdrawals = route({ method: "get", path: "/withdrawals", responses: { 200: answer<DataOf<WithdrawalView[]>>() } });

export const withdrawal = route({
  method: "get",
  path: "/withdrawals/{id}",
  request: { params: withdrawalIdParamSchema },
  responses: { 200: answer<WithdrawalView>() },
});
