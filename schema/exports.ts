import { z } from "zod";

/**
 * CSV export of the history screens (issue 17 "History"): GET /api/export/transactions.csv and /api/export/orders.csv.
 * Days are Lagos calendar days (WAT, UTC+1 all year: Nigeria has no daylight saving), both ends included.
 */
const EXPORT_MAX_DAYS = 366;
/** Lagos is UTC+1 with no daylight saving. */
const LAGOS_OFFSET_MS = 60 * 60_000;

const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "Dates must be written YYYY-MM-DD.")
  .refine((v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v), "That date does not exist.");

export const exportRangeSchema = z
  .object({ from: day, to: day })
  .refine((r) => r.from <= r.to, { message: "The start date must be on or before the end date.", path: ["from"] })
  .refine((r) => (Date.parse(r.to) - Date.parse(r.from)) / 86_400_000 < EXPORT_MAX_DAYS, {
    message: `Export at most ${EXPORT_MAX_DAYS} days at a time.`,
    path: ["to"],
  });
type ExportRange = z.infer<typeof exportRangeSchema>;

/** The range as epoch-ms [start, end) in Lagos time. */
export function exportWindow(range: ExportRange): { start: number; end: number } {
  return {
    start: Date.parse(`${range.from}T00:00:00Z`) - LAGOS_OFFSET_MS,
    end: Date.parse(`${range.to}T00:00:00Z`) + 86_400_000 - LAGOS_OFFSET_MS,
  };
}
