/**
 * The one clock and the one time format of every screen, e-mail and CSV a customer or an operator reads (issue 43,
 * docs/decisions/063): Lagos time (Africa/Lagos, WAT, UTC+1 all year), 12-hour with AM/PM, labelled "WAT" so a reader
 * elsewhere knows which clock it is: "Nov 29, 3:08 AM WAT". The year shows when it is not the current one (always in
 * a CSV, which is read later). Written through Intl.DateTimeFormat's parts, assembled here, so every engine (Chromium,
 * workerd, Node) prints the same text whatever its locale data spells around them. Zod-free: the web imports it.
 */

export const APP_TIME_ZONE = "Africa/Lagos";
/** West Africa Time: Nigeria keeps UTC+1 all year (no daylight saving), so the label never changes. */
export const APP_TIME_ZONE_LABEL = "WAT";

type Instant = string | number | Date | null | undefined;

const parts = new Intl.DateTimeFormat("en-US", {
  timeZone: APP_TIME_ZONE,
  year: "numeric",
  month: "short",
  day: "numeric",
  hour: "numeric",
  minute: "2-digit",
  hour12: true,
});

/**
 * An instant from what the API and the database hand out: epoch milliseconds, an ISO 8601 text, or a stored text
 * without a zone ("2024-11-29 02:08:00", which our server and the upstreams write in UTC). Null when unreadable.
 */
export function toInstant(value: Instant): Date | null {
  if (value === null || value === undefined || value === "") return null;
  if (value instanceof Date) return Number.isFinite(value.getTime()) ? value : null;
  if (typeof value === "number") return Number.isFinite(value) ? new Date(value) : null;
  const text = value.trim();
  // A date and time with no zone is UTC here (Date.parse would read it as the viewer's own zone).
  const zoneless = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(text);
  const ms = Date.parse(zoneless ? `${text.replace(" ", "T")}Z` : text);
  return Number.isFinite(ms) ? new Date(ms) : null;
}

interface LagosParts {
  year: string;
  month: string;
  day: string;
  hour: string;
  minute: string;
  period: string;
}

function lagosParts(at: Date): LagosParts {
  const found: Record<string, string> = {};
  for (const p of parts.formatToParts(at)) found[p.type] = p.value;
  return {
    year: found.year ?? "",
    month: found.month ?? "",
    day: found.day ?? "",
    // Some engines write midnight as "0" with hourCycle h11; the 12-hour clock says 12.
    hour: found.hour === "0" ? "12" : (found.hour ?? ""),
    minute: found.minute ?? "",
    period: (found.dayPeriod ?? "").toUpperCase(),
  };
}

export interface DateTimeOptions {
  /** "always" (a CSV), or "auto" (default): only when not the current year in Lagos. */
  year?: "always" | "auto";
  /** The current time for "auto" (tests pass one; screens use the device's clock). */
  now?: number;
}

/** "Nov 29, 3:08 AM WAT" (with ", 2023" after the day for another year); "—" for a missing or unreadable time. */
export function formatDateTime(value: Instant, options: DateTimeOptions = {}): string {
  const at = toInstant(value);
  if (!at) return "—";
  const p = lagosParts(at);
  const showYear = options.year === "always" || p.year !== lagosParts(new Date(options.now ?? Date.now())).year;
  return `${p.month} ${p.day}, ${showYear ? `${p.year}, ` : ""}${p.hour}:${p.minute} ${p.period} ${APP_TIME_ZONE_LABEL}`;
}

/** The day alone, in Lagos: "Nov 29, 2024" (a passkey's "added" date). */
export function formatDate(value: Instant): string {
  const at = toInstant(value);
  if (!at) return "—";
  const p = lagosParts(at);
  return `${p.month} ${p.day}, ${p.year}`;
}

/** The time alone, in Lagos: "3:08 AM WAT" (when a figure on the screen was read today). */
export function formatTime(value: Instant): string {
  const at = toInstant(value);
  if (!at) return "—";
  const p = lagosParts(at);
  return `${p.hour}:${p.minute} ${p.period} ${APP_TIME_ZONE_LABEL}`;
}

/** A Lagos calendar day as YYYY-MM-DD (the CSV export's range, the date fields' defaults). */
export function lagosDay(value: Instant): string {
  const at = toInstant(value);
  if (!at) return "";
  const p = new Intl.DateTimeFormat("en-CA", { timeZone: APP_TIME_ZONE, year: "numeric", month: "2-digit", day: "2-digit" }).formatToParts(at);
  const get = (type: string) => p.find((x) => x.type === type)?.value ?? "";
  return `${get("year")}-${get("month")}-${get("day")}`;
}
