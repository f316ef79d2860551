import { env } from "cloudflare:workers";

/**
 * The worker tests share one workerd and one D1 per lane across test files (isolate=false, decision 054), so the
 * database a file starts with already holds the earlier files' rows, some of them deliberately broken (an order with
 * no debit, a hand-made payment). Checks that used to read the whole, fresh database read "this file's rows" instead:
 * the users created since the file began (users are never deleted, and SQLite gives a new row a rowid above every
 * existing one, so rowid > the mark is exactly the users this file made), and everything those users own. That is the
 * same set of rows a fresh database held under isolate=true, so the check proves the same thing.
 */
let usersRowidMark = 0;

/**
 * worker/test/setup.ts calls this before each file's own beforeAll. What the earlier files left for a sweep is
 * closed: their file's runtime and simulators are gone, as a file's whole database was under isolate=true, and this
 * file's sweeps must find only its own (they take the oldest 200 first, so leftovers would starve them): events
 * waiting for delivery (outbox rows, webhook deliveries due) are marked done.
 */
export async function markFileStart(): Promise<void> {
  const row = await env.DB.prepare("SELECT COALESCE(MAX(rowid), 0) AS mark FROM users").first<{ mark: number }>();
  usersRowidMark = row?.mark ?? 0;
  await env.DB.batch([
    env.DB.prepare("UPDATE outbox_events SET delivered_at = created_at WHERE delivered_at IS NULL"),
    env.DB.prepare("UPDATE webhook_events SET next_attempt_at = 8640000000000000 WHERE status = 'pending'"),
  ]);
}

/** The users table's rowid mark: users with a higher rowid were created by the running test file. */
export function fileUsersRowidMark(): number {
  return usersRowidMark;
}

/** SQL for the ids of the users the running file created (bind fileUsersRowidMark() to its one parameter). */
export const FILE_USERS_SQL = "SELECT id FROM users WHERE rowid > ?";

/**
 * "Everyone online" (a session seen in the last 15 minutes) is a whole-table reading: the earlier files' customers
 * signed in minutes ago too. This marks their sessions as last seen long ago (they stay valid), so a broadcast reaches
 * this file's customers only, as it did when each file had its own database.
 */
export async function earlierFilesCustomersOffline(): Promise<void> {
  await env.DB.prepare("UPDATE sessions SET last_seen_at = 1 WHERE user_id NOT IN (" + FILE_USERS_SQL + ")").bind(usersRowidMark).run();
}
