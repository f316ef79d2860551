/**
 * The Rate Limiting binding counts in fixed windows (Miniflare's local limiter: floor(now / period), forgotten when the
 * window turns; decision 073). A test that must see N hits in one window must not straddle two: it starts in a window
 * with at least `needMs` left, and counts on a key no other test uses.
 */
export async function inOneWindow(periodSeconds: number, needMs: number): Promise<void> {
  const period = periodSeconds * 1000;
  const left = period - (Date.now() % period);
  if (left < needMs) await new Promise((resolve) => setTimeout(resolve, left + 100));
}

/**
 * What a limit test needs of one window: its 30-105 requests took 0.36 s on a quiet machine (the reset-link test in a
 * clean-clone run), so 10 s leaves a 25-fold margin for a loaded one. It was 30 s: a test then waited half the time,
 * 15 s on average and up to 30 s (the Check Now test took 28 s, nearly all of it waiting).
 */
export const WINDOW_NEEDED_MS = 10_000;

/** An address of the IPv6 documentation range (RFC 3849) no other test counts on. */
export const freshAddress = (): string => `2001:db8::${crypto.randomUUID().slice(0, 4)}:${crypto.randomUUID().slice(0, 4)}`;
