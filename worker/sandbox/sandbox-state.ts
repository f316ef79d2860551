/**
 * A simulator's own JSON state in the sandbox_state table, one row per key: what a provider would keep on its side
 * (Squad's virtual accounts and transfers, its payouts). Sandbox-only; the product never reads it.
 */
export async function loadState<T>(env: Env, key: string): Promise<T | null> {
  const row = await env.DB.prepare("SELECT value FROM sandbox_state WHERE key = ?").bind(key).first<{ value: string }>();
  return row ? (JSON.parse(row.value) as T) : null;
}

export async function saveState(env: Env, key: string, value: unknown): Promise<void> {
  await env.DB.prepare("INSERT INTO sandbox_state (key, value, updated_at) VALUES (?1, ?2, ?3) ON CONFLICT(key) DO UPDATE SET value = ?2, updated_at = ?3")
    .bind(key, JSON.stringify(value), Date.now())
    .run();
}
