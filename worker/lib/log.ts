/**
 * Structured logs, one JSON line each. Never pass a secret, a token, a password or a full request body here:
 * redact() strips anything that looks like one as a second line of defence.
 */
export function log(level: "info" | "warn" | "error", msg: string, fields: Record<string, unknown> = {}): void {
  const line = JSON.stringify({ level, msg, ...redact(fields) });
  if (level === "error") console.error(line);
  else if (level === "warn") console.warn(line);
  else console.log(line);
}

const SECRET_FIELD = /(pass(word)?|secret|token|api[-_]?key|authorization|signature|sig)$/i;
// Bearer tokens, JWTs, developer API keys (sk_live_/sk_test_) and webhook signing secrets (whsec_), wherever they hide.
const SECRET_VALUE = /(Bearer\s+[\w.-]+|eyJ[\w-]+\.[\w-]+\.[\w-]+|sk_(?:live|test)_[A-Za-z0-9]+|whsec_[A-Za-z0-9]+)/g;

export function redact(fields: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) {
    if (SECRET_FIELD.test(key)) out[key] = "[redacted]";
    else if (typeof value === "string") out[key] = value.replace(SECRET_VALUE, "[redacted]");
    else out[key] = value;
  }
  return out;
}
