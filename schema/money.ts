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

/**
 * The spec's figure: absolute value, two decimals, en-NG grouping, no sign; a non-numeric amount counts as 0. Screens
 * and messages write money through `naira` (below); this bare figure is for the server's sentences and the simulators.
 */
export function formatNaira(amount: unknown): string {
  const n = typeof amount === "number" ? amount : Number(amount);
  return ngn.format(Math.abs(Number.isFinite(n) ? n : 0));
}

/**
 * The one naira format (issue 43): "₦1,234.56", always two decimals, never rounded to whole naira (the header, the
 * balance card and a shortfall say the same figure). A sign, where one is due, goes before it ("-₦313.60"): `signed`.
 */
export function naira(amount: unknown): string {
  return `₦${formatNaira(amount)}`;
}

/** A movement with its sign: "+₦7,750.00", "-₦313.60"; nothing moved: "₦0.00". */
export function signedNaira(amount: number): string {
  const n = Number.isFinite(amount) ? amount : 0;
  return `${n > 0 ? "+" : n < 0 ? "-" : ""}${naira(n)}`;
}
