import { NO_RENT_STOCK_MESSAGE } from "../../../schema/constants";
import { AppError } from "../../lib/errors";
import { log } from "../../lib/log";
import { isRentUpstream, type RentUpstream } from "../../providers/rent";
import { RentProviderError, type RentalProvider } from "../../providers/rent/types";
import type { RentalDeps } from "../kernel";

/** The upstream each customer's rental talks to, and how its failures read to the customer. */

/** A rent upstream (absent: sms-man) for one customer (a sandbox account's is always the simulator: rentalDeps's
 * resolver), or with null, where no customer is involved, the deployment's own. */
export function upstreamFor(deps: RentalDeps, userId: string | null, upstream?: RentUpstream): RentalProvider {
  return deps.provider(userId, upstream);
}

/** The upstream that holds this rental's number: every call about it goes there (issue 49; null, a rental from before: sms-man). */
export function rentalUpstream(deps: RentalDeps, row: { userId: string; upstream: string | null }): RentalProvider {
  return deps.provider(row.userId, isRentUpstream(row.upstream) ? row.upstream : "smsman");
}

const UPSTREAM_DOWN = "The number provider is not available right now. Please try again in a few minutes.";

/** Maps an upstream failure to what the customer sees; the operator-only detail goes to the logs. */
export function customerErrorFor(err: unknown, action: string): unknown {
  if (!(err instanceof RentProviderError)) return err;
  log(err.kind === "account" ? "error" : "warn", "rent upstream failure", { action, kind: err.kind, detail: err.message });
  if (err.kind === "no_stock") return new AppError("NO_NUMBERS", NO_RENT_STOCK_MESSAGE);
  if (err.kind === "timeout") return new AppError("UPSTREAM_TIMEOUT", "The number provider took too long to answer. Please try again.");
  return new AppError("UPSTREAM_UNAVAILABLE", UPSTREAM_DOWN);
}
