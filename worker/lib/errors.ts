import { ERROR_STATUS, type ErrorBody, type ErrorCode } from "../../schema/errors";

/** A failure the customer can act on. Thrown anywhere; app.onError turns it into the one error body. */
export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** Extra fields merged into the body (e.g. the new price on PRICE_CHANGED, retry_after on RATE_LIMITED). */
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
    this.status = ERROR_STATUS[code];
  }
}

export function errorBody(code: ErrorCode | string, message: string, extra: Record<string, unknown> = {}): ErrorBody {
  return { code, message, error: message, ...extra };
}

/** D1 reports constraint failures as plain Errors; these tell them apart so callers can map them to outcomes. */
export function isUniqueViolation(err: unknown): boolean {
  return errorText(err).includes("UNIQUE constraint failed");
}
export function isCheckViolation(err: unknown, name?: string): boolean {
  const text = errorText(err);
  return text.includes("CHECK constraint failed") && (!name || text.includes(name));
}
function errorText(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const cause = err.cause instanceof Error ? ` ${err.cause.message}` : "";
  return `${err.message}${cause}`;
}
