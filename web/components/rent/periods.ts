import type { RentUnit } from "../../api/rentals";

/** Spec section 4 (Rental) and 9: the units and how many of each can be rented at once. */
export const RENT_UNITS: { value: RentUnit; label: string }[] = [
  { value: "hour", label: "Hour" },
  { value: "day", label: "Day" },
  { value: "week", label: "Week" },
  { value: "month", label: "Month" },
];

export const MAX_PERIOD: Record<RentUnit, number> = { hour: 24, day: 7, week: 4, month: 12 };

export function isRentUnit(value: string): value is RentUnit {
  return value in MAX_PERIOD;
}

/** The period selector's options for a unit: 1..max, labelled "1 hour", "2 hours"; none before a unit is chosen. */
export function periodOptions(unit: string): { value: string; label: string }[] {
  if (!isRentUnit(unit)) return [];
  return Array.from({ length: MAX_PERIOD[unit] }, (_, i) => {
    const n = i + 1;
    return { value: String(n), label: `${n} ${unit}${n === 1 ? "" : "s"}` };
  });
}
