import { Hono } from "hono";
import { z } from "zod";
import { settingSchemas, type SettingKey } from "../../schema/settings";
import type { AppEnv } from "../app-env";
import { getDb } from "../db/client";
import { AppError } from "../lib/errors";
import { validate } from "../lib/validate";
import { putSetting } from "../services/kernel";

/**
 * POST /sandbox/settings/:key — sets an operator setting in sandbox mode only (mounted under the sandbox guard), so a
 * local journey can, say, poll SMS every 500 ms instead of 6 s. Live deployments change settings with the operator CLI.
 */
const keySchema = z.object({
  key: z.enum(Object.keys(settingSchemas) as [SettingKey, ...SettingKey[]], { message: "Unknown setting." }),
});

export const settingsSandboxRoutes = new Hono<AppEnv>().post("/:key", validate("param", keySchema), validate("json", z.unknown()), async (c) => {
  const { key } = c.req.valid("param");
  const parsed = settingSchemas[key].safeParse(c.req.valid("json"));
  if (!parsed.success) throw new AppError("VALIDATION_FAILED", parsed.error.issues[0]?.message ?? "The setting is not valid.");
  await putSetting(getDb(c.env.DB), key, parsed.data as never);
  return c.json({ key, value: parsed.data });
});
