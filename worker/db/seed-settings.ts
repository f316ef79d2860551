import { SETTING_DEFAULTS } from "../../schema/settings";

// Kept free of bindings so the local scripts (Node) can import it as well as the worker.

/** SQL that seeds every default without overwriting what an operator changed: safe to run on every start. */
export function seedSettingsSql(): string {
  return Object.entries(SETTING_DEFAULTS)
    .map(([key, value]) => {
      const json = JSON.stringify(value).replaceAll("'", "''");
      return `INSERT INTO settings (key, value) VALUES ('${key}', '${json}') ON CONFLICT(key) DO NOTHING;`;
    })
    .join("\n");
}

