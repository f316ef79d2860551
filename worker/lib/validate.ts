import { zValidator } from "@hono/zod-validator";
import type { ValidationTargets } from "hono";
import type { ZodType } from "zod";
import { AppError } from "./errors";

/** What a validate() middleware checks: read by lib/openapi.ts, so a documented route and its check cannot differ. */
export interface Validates {
  target: keyof ValidationTargets;
  schema: ZodType;
}
const validating = new WeakMap<object, Validates>();

export function validatesOf(handler: object): Validates | undefined {
  return validating.get(handler);
}

/**
 * zValidator with the one error body: the first issue's message is the customer-facing text
 * (the schemas in schema/ carry the spec's wording), and the field path goes along for forms.
 */
export function validate<T extends ZodType, Target extends keyof ValidationTargets>(target: Target, schema: T) {
  const middleware = zValidator(target, schema, (result) => {
    if (!result.success) {
      const issue = result.error.issues[0];
      const message = issue?.message && !issue.message.startsWith("Invalid input") ? issue.message : describe(issue);
      throw new AppError("VALIDATION_FAILED", message, { field: issue?.path.join(".") || undefined });
    }
  });
  // Remembered by middleware, so a route's OpenAPI entry is read from what it validates (lib/openapi.ts).
  validating.set(middleware, { target, schema });
  return middleware;
}

function describe(issue: { path: PropertyKey[]; message: string } | undefined): string {
  if (!issue) return "The request is not valid.";
  const field = issue.path.map(String).join(".");
  return field ? `${field}: ${issue.message}` : issue.message;
}
