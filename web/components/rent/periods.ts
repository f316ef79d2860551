import { RENT_PERIOD_MAX, RENT_UNITS, type RentUnit } from "../../../schema/constants";

const UNIT_LABELS: Record<RentUnit, string> = { hour: "Hour", day: "Day", week: "Week", month: "Month" };

/** Spec section 4 (Rental) and 9: the units offered, in the contract's order (the ranges are RENT_PERIOD_MAX). */
export const RENT_UNIT_OPTIONS: { value: RentUnit; label: string }[] = RENT_UNITS.map((value) => ({ value, label: UNIT_LABELS[value] }));

export function isRentUnit(value: string): value is RentUnit {
  return Object.hasOwn(RENT_PERIOD_MAX, value);
}

/** A rental's length as people say it: "1 day", "24 hours". */
export function formatRentChoice(unit: string, period: number): string {
  return `${period} ${unit}${period === 1 ? "" : "s"}`;
}

/** The period selector's options for a unit: 1..max, labelled "1 hour", "2 hours"; none before a unit is chosen. */
export function periodOptions(unit: string): { value: string; label: string }[] {
  if (!isRentUnit(unit)) return [];
  return Array.from({ length: RENT_PERIOD_MAX[unit] }, (_, i) => {
    const n = i + 1;
    return { value: String(n), label: formatRentChoice(unit, n) };
  });
}
