import { zValidator } from "@hono/zod-validator";
import type { ValidationTargets } from "hono";
import type { ZodType } from "zod";
import { AppError } from "./errors";

/**
 * Bad input, in the one error body: the first issue's message is the customer-facing text (the schemas in schema/
 * carry the spec's wording), and the field path goes along for forms. The hook of every route definition's validation
 * (routes/route-app.ts) and of `validate()`.
 */
export function refuseInvalid(result: { success: true } | { success: false; error: { issues: Issue[] } }): void {
  if (result.success) return;
  const issue = result.error.issues[0];
  const message = issue?.message && !issue.message.startsWith("Invalid input") ? issue.message : describe(issue);
  throw new AppError("VALIDATION_FAILED", message, { field: issue?.path.join(".") || undefined });
}

/**
 * zValidator with the one error body, for the routes that speak another party's protocol rather than one of our faces
 * (the sandbox simulators, which follow the providers' documents): our own API's routes validate through their
 * definitions (worker/contract/).
 */
export function validate<T extends ZodType, Target extends keyof ValidationTargets>(target: Target, schema: T) {
  return zValidator(target, schema, refuseInvalid);
}

interface Issue {
  path: PropertyKey[];
  message: string;
}

function describe(issue: Issue | undefined): string {
  if (!issue) return "The request is not valid.";
  const field = issue.path.map(String).join(".");
  return field ? `${field}: ${issue.message}` : issue.message;
}
