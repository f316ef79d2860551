/**
 * The origin customers reach us at, for callback URLs, referral links and e-mails: PUBLIC_URL when configured (behind a
 * custom domain or proxy), otherwise the origin of the request being served. No trailing slash.
 */
export function publicOrigin(configured: string | undefined, requestUrl: string): string {
  return (configured || new URL(requestUrl).origin).replace(/\/+$/, "");
}
