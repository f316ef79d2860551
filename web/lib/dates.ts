/** The one date format of the app (the spec's, section 5). */

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/**
 * The spec's date text (section 5), the one date format of the app: month abbreviation, day, and HH:MM read from the raw
 * timestamp text with AM before noon and PM after, e.g. "2024-03-05T14:07:09Z" -> "Mar 5, 14:07 PM". Reading the text
 * (not a local Date) keeps the figure identical to what the server stored whatever the viewer's time zone.
 * A number is taken as epoch milliseconds (the rental inbox's times) and written the same way.
 */
export function formatDateTime(raw: string | number | null | undefined): string {
  const text = typeof raw === "number" ? (Number.isFinite(raw) ? new Date(raw).toISOString() : "") : raw;
  const m = text ? /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})/.exec(text) : null;
  if (!m) return "—";
  const month = MONTHS[Number(m[2]) - 1];
  if (!month) return "—";
  const hour = Number(m[4]);
  return `${month} ${Number(m[3])}, ${m[4]}:${m[5]} ${hour < 12 ? "AM" : "PM"}`;
}
