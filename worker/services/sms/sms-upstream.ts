import type { SmsProviderName } from "../../../schema/constants";
import { smsProviderSchema } from "../../../schema/sms";
import type { ErrorCode } from "../../../schema/errors";
import { SmsProviderError, type SmsFaultKind, type SmsPollResult, type SmsProvider } from "../../providers/sms/types";
import type { SmsDeps } from "../kernel";

/** The upstream each SMS order talks to, how its answers read when it will not release a number, and how its refusals
 * read to the customer. */

/** The order's upstream: its provider (an unreadable name reads as Swift, as it always has) for its customer. */
export function upstreamFor(deps: SmsDeps, order: { provider: string; userId: string }): SmsProvider {
  const parsed = smsProviderSchema.safeParse(order.provider);
  return deps.provider(parsed.success ? parsed.data : ("Swift" satisfies SmsProviderName), order.userId);
}

/**
 * What the upstream did with a number it would not release, read with one getStatus: the code (it wins), "gone"
 * (STATUS_CANCEL, NO_ACTIVATION: nothing will ever be delivered), "waiting", or null when it cannot be read now.
 */
export async function readOutcome(provider: SmsProvider, upstreamId: string): Promise<SmsPollResult | { state: "gone" } | null> {
  try {
    const result = await provider.poll(upstreamId);
    return result.state === "cancelled" ? { state: "gone" } : result;
  } catch (err) {
    if (err instanceof SmsProviderError && err.kind === "not_found") return { state: "gone" };
    return null;
  }
}

/** A purchase the upstream refused, as the customer's error code (the message is the adapter's own). */
export function buyFaultCode(kind: SmsFaultKind): ErrorCode {
  switch (kind) {
    case "no_numbers":
      return "NO_NUMBERS";
    case "timeout":
      return "UPSTREAM_TIMEOUT";
    case "price_exceeded":
      return "PRICE_CHANGED";
    case "bad_service":
      return "UNPROCESSABLE";
    default:
      return "UPSTREAM_UNAVAILABLE";
  }
}
