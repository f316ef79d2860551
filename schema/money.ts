/**
 * Money helpers shared by worker and web. Kobo (integer) is the only unit inside the system; naira appears only at the
 * API edge (koboToNaira) and on screen (formatNaira).
 */

/** Kobo to naira with at most two decimals, for API answers. */
export function koboToNaira(kobo: number): number {
  return Math.round(kobo) / 100;
}

/** Naira (as a client typed it) to kobo, rounded to the nearest kobo. */
export function nairaToKobo(naira: number): number {
  return Math.round(naira * 100);
}

const ngn = new Intl.NumberFormat("en-NG", { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** The spec's display: absolute value, two decimals, en-NG grouping; a non-numeric amount counts as 0. */
export function formatNaira(amount: unknown): string {
  const n = typeof amount === "number" ? amount : Number(amount);
  return ngn.format(Math.abs(Number.isFinite(n) ? n : 0));
}
