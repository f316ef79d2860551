import { SMS_ERROR_TEXT, SMS_TIMEOUT_TEXT } from "../../../schema/constants";
import type { SmsStatusResponse } from "../../../schema/sms";

/**
 * The fields of GET /api/sms/status the phase is read from (a cached order carries only some). Our screen reads our
 * own `state`; `status` is in the spec's original client's words (decision 032).
 */
type StatusFields = Pick<SmsStatusResponse, "state" | "sms"> & Partial<Pick<SmsStatusResponse, "sms_code" | "chain">>;

/** Where a bought number stands, as the screen shows it. */
export type SmsPhase = "waiting" | "received" | "timeout" | "error" | "cancelled";

/**
 * The phase from the server's answer (or, before it arrives, the cached `sms`). A code wins over everything: if a code
 * came during a cancel, the customer sees the code (the server kept the money for it).
 */
export function smsPhase(status: StatusFields | undefined, cachedSms: string | null = null): SmsPhase {
  const sms = status ? status.sms : cachedSms;
  const state = (status?.state ?? "").toLowerCase();
  // "Try another number": this route gave no code but the chain carries on, so the customer is still waiting.
  if (movingOn(status)) return "waiting";
  if (sms && sms !== SMS_TIMEOUT_TEXT && sms !== SMS_ERROR_TEXT) return "received";
  if (state === "used" && status?.sms_code) return "received";
  if (sms === SMS_TIMEOUT_TEXT || state === "timeout") return "timeout";
  if (sms === SMS_ERROR_TEXT || state === "error" || state === "failed") return "error";
  if (state === "cancelled" || state === "reject") return "cancelled";
  return "waiting";
}

/** The chain moved on from this order (or is buying the next route): not an end the customer should see. */
export function movingOn(status: StatusFields | undefined): boolean {
  const state = (status?.state ?? "").toLowerCase();
  if (!status?.chain || state === "used" || state === "cancelled") return false;
  return Boolean(status.chain.next_request_id) || status.chain.moving_on;
}

/** The code to show once received (the server sends it as `sms`, and as `sms_code`). */
export function smsCode(status: StatusFields | undefined, cachedSms: string | null = null): string | null {
  if (smsPhase(status, cachedSms) !== "received") return null;
  return status?.sms ?? status?.sms_code ?? cachedSms;
}
