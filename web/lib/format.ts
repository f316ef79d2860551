/**
 * How the app writes order ids and phone numbers: one shape each, on every screen. Times: schema/datetime.ts (the
 * one clock and format the worker's CSV and e-mails share), re-exported here for the screens.
 */
export { formatDateTime } from "../../schema/datetime";

/** An order id as people read it: the first 8 characters (a UUID's first group). Copy buttons copy the full id. */
export function shortId(id: string): string {
  return id.length > 10 ? id.slice(0, 8) : id;
}

/** A wait in words: "45 s", "2 min", "1 min 30 s", "1 h 5 min" (the server's seconds, rounded to whole seconds). */
export function formatSeconds(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  if (s < 3600) {
    const rest = s % 60;
    return rest ? `${Math.floor(s / 60)} min ${rest} s` : `${s / 60} min`;
  }
  const minutes = Math.round((s % 3600) / 60);
  return minutes ? `${Math.floor(s / 3600)} h ${minutes} min` : `${Math.floor(s / 3600)} h`;
}

/**
 * Calling codes of the countries the providers sell most, longest first, with how the national part is grouped
 * (digits per group). Numbers from elsewhere keep their code and are grouped in threes.
 */
const CALLING_CODES: { code: string; groups: number[] }[] = [
  { code: "234", groups: [3, 3, 4] }, // Nigeria: +234 803 123 4567
  { code: "233", groups: [2, 3, 4] }, // Ghana
  { code: "254", groups: [3, 3, 3] }, // Kenya
  { code: "380", groups: [2, 3, 2, 2] }, // Ukraine
  { code: "27", groups: [2, 3, 4] }, // South Africa: +27 71 234 5678
  { code: "44", groups: [4, 6] }, // United Kingdom: +44 7911 123456
  { code: "49", groups: [3, 8] }, // Germany
  { code: "33", groups: [1, 2, 2, 2, 2] }, // France
  { code: "62", groups: [3, 4, 4] }, // Indonesia
  { code: "63", groups: [3, 3, 4] }, // Philippines
  { code: "66", groups: [2, 3, 4] }, // Thailand
  { code: "84", groups: [2, 3, 4] }, // Vietnam
  { code: "86", groups: [3, 4, 4] }, // China
  { code: "91", groups: [5, 5] }, // India
  { code: "55", groups: [2, 5, 4] }, // Brazil
  { code: "1", groups: [3, 3, 4] }, // USA, Canada: +1 555 123 4567
  { code: "7", groups: [3, 3, 2, 2] }, // Russia, Kazakhstan: +7 900 123 45 67
];

function group(digits: string, sizes: number[]): string {
  const parts: string[] = [];
  let at = 0;
  for (const size of sizes) {
    if (at >= digits.length) break;
    parts.push(digits.slice(at, at + size));
    at += size;
  }
  if (at < digits.length) parts.push(digits.slice(at));
  return parts.join(" ");
}

/**
 * A phone number written for its country: "+234 803 123 4567", "+1 555 123 4567". Providers send bare international
 * digits ("2348031234567"); a Nigerian number typed locally ("08031234567") is written "0803 123 4567". Anything that
 * is not a plain number is returned unchanged.
 */
export function formatPhone(raw: string | null | undefined): string {
  if (!raw) return "";
  const trimmed = raw.trim();
  const digits = trimmed.replace(/[\s()-]/g, "").replace(/^\+/, "");
  if (!/^\d{7,15}$/.test(digits)) return trimmed;
  if (!trimmed.startsWith("+") && digits.startsWith("0") && digits.length === 11) return group(digits, [4, 3, 4]);
  const known = CALLING_CODES.find((c) => digits.startsWith(c.code) && digits.length - c.code.length >= 6);
  if (known) return `+${known.code} ${group(digits.slice(known.code.length), known.groups)}`;
  return `+${group(digits, [3, 3, 3, 3])}`;
}
