import { z } from "zod";

/** Developer API keys as the Settings "API" section and /api/keys speak them (docs/api.md "Developer API"). */
export const apiKeyModeSchema = z.enum(["test", "live"]);
export type ApiKeyMode = z.infer<typeof apiKeyModeSchema>;

export const createApiKeySchema = z.object({
  name: z.string().trim().min(1, "Please give the key a name.").max(60, "A key name is at most 60 characters."),
  mode: apiKeyModeSchema.default("test"),
});
export type CreateApiKeyInput = z.input<typeof createApiKeySchema>;

export const apiKeyViewSchema = z.object({
  id: z.string(),
  name: z.string(),
  mode: apiKeyModeSchema,
  /** The first characters of the secret, e.g. "sk_test_Ab12Cd": enough to tell keys apart, useless to an attacker. */
  prefix: z.string(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
  webhook_url: z.string().nullable(),
});
export type ApiKeyView = z.infer<typeof apiKeyViewSchema>;

/** The answer to creating a key: the only time the secret is ever shown. */
export const createdApiKeySchema = apiKeyViewSchema.extend({ secret: z.string(), webhook_secret: z.string() });
export type CreatedApiKey = z.infer<typeof createdApiKeySchema>;

export const apiKeyIdSchema = z.object({ id: z.string().min(1).max(64) });

export const sandboxTopUpSchema = z.object({
  amount: z
    .number({ error: "amount must be a number of naira." })
    .int("amount must be whole naira.")
    .min(1, "amount must be at least ₦1.")
    .max(1_000_000, "A sandbox top-up is at most ₦1,000,000."),
});
