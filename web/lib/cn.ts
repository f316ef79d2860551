/** Joins class names, skipping falsy ones: `cn("a", busy && "opacity-50")`. */
export function cn(...classes: Array<string | false | null | undefined>): string {
  return classes.filter(Boolean).join(" ");
}
