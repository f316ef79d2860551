import { inArray, sql } from "drizzle-orm";
import { SETTING_DEFAULTS, settingSchemas, type SettingKey, type SettingValue } from "../../../schema/settings";
import type { Db } from "../../db/client";
import { settings } from "./tables";
import { TtlCache } from "../../lib/cache";

// Settings change rarely and are read on every price: a short per-isolate cache keeps price lists at zero D1 round
// trips. A change made by the operator CLI is served within CACHE_MS.
const CACHE_MS = 10_000;
const cache = new TtlCache<SettingKey, unknown>(CACHE_MS);

/** Reads settings (validated; a missing or corrupt row falls back to the default so the product keeps working). */
export async function getSettings<K extends SettingKey>(db: Db, keys: K[]): Promise<{ [P in K]: SettingValue<P> }> {
  const out = {} as { [P in K]: SettingValue<P> };
  const missing: K[] = [];
  for (const key of keys) {
    const hit = cache.get(key);
    if (hit) out[key] = hit.value as SettingValue<K>;
    else missing.push(key);
  }
  if (missing.length > 0) {
    const rows = await db.select().from(settings).where(inArray(settings.key, missing));
    for (const key of missing) {
      const row = rows.find((r) => r.key === key);
      const value = parseSetting(key, row?.value);
      cache.set(key, value);
      out[key] = value;
    }
  }
  return out;
}

export async function getSetting<K extends SettingKey>(db: Db, key: K): Promise<SettingValue<K>> {
  return (await getSettings(db, [key]))[key];
}

function parseSetting<K extends SettingKey>(key: K, raw: string | undefined): SettingValue<K> {
  if (raw !== undefined) {
    try {
      const parsed = settingSchemas[key].safeParse(JSON.parse(raw));
      if (parsed.success) return parsed.data as SettingValue<K>;
    } catch {
      // fall through to the default
    }
    console.warn(JSON.stringify({ level: "warn", msg: "invalid setting, using default", key }));
  }
  return SETTING_DEFAULTS[key];
}

/**
 * Writes a validated setting (the sandbox's settings page, tests). Its updated_at is `at` (the caller's clock), or the
 * table's own default when none is given: a setting's change time decides nothing.
 */
export async function putSetting<K extends SettingKey>(db: Db, key: K, value: SettingValue<K>, at?: number): Promise<void> {
  const parsed = settingSchemas[key].parse(value);
  const json = JSON.stringify(parsed);
  await db
    .insert(settings)
    .values({ key, value: json, ...(at === undefined ? {} : { updatedAt: at }) })
    .onConflictDoUpdate({ target: settings.key, set: { value: json, updatedAt: sql`excluded.updated_at` } });
  cache.delete(key);
}

/** Forgets cached values (tests, and after the CLI changes a value in the same isolate). */
export function clearSettingsCache(): void {
  cache.clear();
}

