/**
 * The one error vocabulary. Every failure the API reports uses one of these codes, with the HTTP status beside it,
 * in the one error body: { code, message, error } (the spec's client reads `message` on most calls, `error` on login).
 */
export const ERROR_STATUS = {
  VALIDATION_FAILED: 400,
  BAD_JSON: 400,
  UNAUTHORIZED: 401,
  INVALID_CREDENTIALS: 401,
  INVALID_SIGNATURE: 401,
  INSUFFICIENT_BALANCE: 402,
  FORBIDDEN: 403,
  EMAIL_NOT_VERIFIED: 403,
  // A sensitive change needs a fresh second factor or re-authentication first (POST /api/step-up; decision 034).
  STEP_UP_REQUIRED: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  EMAIL_TAKEN: 409,
  PRICE_CHANGED: 409,
  INVALID_STATE: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  UNPROCESSABLE: 422,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  UPSTREAM_UNAVAILABLE: 502,
  NO_NUMBERS: 503,
  UPSTREAM_TIMEOUT: 504,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** The one error body; extra fields (the new price on PRICE_CHANGED, retry_after on RATE_LIMITED) sit beside these. */
export interface ErrorBody extends Record<string, unknown> {
  code: string;
  message: string;
  error: string;
}
