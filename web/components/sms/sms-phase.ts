import type { SmsPhase } from "../../../schema/constants";
import type { SmsStatusResponse } from "../../../schema/sms";

export type { SmsPhase };

/** The fields of GET /api/sms/status the screen reads (a cached order carries only its phase and `sms`). */
type StatusFields = Pick<SmsStatusResponse, "phase" | "sms"> & Partial<Pick<SmsStatusResponse, "sms_code">>;

/** What this browser remembered of the order before the server answers again (web/components/sms/pending-request.ts). */
type Cached = { phase?: SmsPhase; sms: string | null } | null | undefined;

/**
 * Where a bought number stands: the server's `phase` as sent (issue 29: the server decides it from its own state,
 * worker/services/sms/sms-views.ts smsOrderPhase), or, until its answer arrives, the phase this browser last read.
 */
export function smsPhase(status: StatusFields | undefined, cached: Cached = null): SmsPhase {
  return status ? status.phase : (cached?.phase ?? "waiting");
}

/** The code to show once received (the server sends it as `sms`, and as `sms_code`). */
export function smsCode(status: StatusFields | undefined, cached: Cached = null): string | null {
  if (smsPhase(status, cached) !== "received") return null;
  return status ? (status.sms ?? status.sms_code ?? null) : (cached?.sms ?? null);
}
