import type { z } from "zod";

export type FieldErrors<T> = Partial<Record<keyof T & string, string>>;

/**
 * Validates form values with a shared schema from schema/ (the same messages the server answers with).
 * Gives the parsed data, or the first message for each field that failed.
 */
export function validateForm<S extends z.ZodType>(
  schema: S,
  values: z.input<S>,
): { ok: true; data: z.output<S> } | { ok: false; errors: FieldErrors<z.input<S>> } {
  const result = schema.safeParse(values);
  if (result.success) return { ok: true, data: result.data };
  const errors: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const key = String(issue.path[0] ?? "");
    if (key && !(key in errors)) errors[key] = issue.message;
  }
  return { ok: false, errors: errors as FieldErrors<z.input<S>> };
}
