import { Hono } from "hono";
import { apiKeyIdSchema, createApiKeySchema, sandboxTopUpSchema } from "../../schema/api-keys";
import { koboToNaira, nairaToKobo } from "../../schema/money";
import type { AppEnv } from "../app-env";
import { getDb } from "../db/client";
import { validate } from "../lib/validate";
import { requireAuth } from "../middleware/auth";
import { createApiKey, listApiKeys, revokeApiKey, sandboxBalanceKobo, topUpSandbox } from "../services/api-keys";
import { requireVerifiedEmail } from "../services/email-verification";

/**
 * The Settings "API" section: the signed-in customer manages their developer keys (session token only: a key cannot
 * mint or revoke keys) and their sandbox wallet.
 */
export const apiKeyRoutes = new Hono<AppEnv>();

apiKeyRoutes.use("/keys", requireAuth);
apiKeyRoutes.use("/keys/*", requireAuth);

apiKeyRoutes.get("/keys", async (c) => c.json({ data: await listApiKeys(getDb(c.env.DB), c.var.user.id) }));

apiKeyRoutes.post("/keys", validate("json", createApiKeySchema), async (c) => {
  // A key spends the wallet without a password or 2FA: only an owner whose address is confirmed may mint one.
  requireVerifiedEmail(c.var.user);
  return c.json(await createApiKey(getDb(c.env.DB), c.var.user, c.req.valid("json")), 201);
});

apiKeyRoutes.post("/keys/:id/revoke", validate("param", apiKeyIdSchema), async (c) => {
  return c.json(await revokeApiKey(getDb(c.env.DB), c.var.user.id, c.req.valid("param").id));
});

/** The sandbox account's test wallet (created with the first test key, or here). */
apiKeyRoutes.get("/keys/sandbox", async (c) => {
  return c.json({ balance: koboToNaira(await sandboxBalanceKobo(getDb(c.env.DB), c.var.user)) });
});

/** Free test money: it exists only in the sandbox account and buys only sandbox numbers. */
apiKeyRoutes.post("/keys/sandbox/top-up", validate("json", sandboxTopUpSchema), async (c) => {
  const db = getDb(c.env.DB);
  await topUpSandbox(db, c.var.user, nairaToKobo(c.req.valid("json").amount));
  return c.json({ balance: koboToNaira(await sandboxBalanceKobo(db, c.var.user)) });
});
