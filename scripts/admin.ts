import { randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir, userInfo } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import {
  auditSql,
  COUNT_USERS_SQL,
  findUserQuery,
  manualEntrySql,
  RECONCILE_SQL,
  reviewQueueSql,
  setResellerSql,
  setRoleSql,
  setSettingSql,
  stuckSql,
  type AdminChange,
  providerOrdersSql,
  UPSTREAM_HEALTH_SQL,
  userLedgerQuery,
} from "../worker/db/admin-sql";
import * as tables from "../worker/db/tables";
import { SETTING_DEFAULTS } from "../schema/settings";
import { summariseProviderOrders, type ProviderOrderRow } from "../worker/services/sms/provider-stats";
import { createSquadVirtualAccountClient } from "../worker/providers/payments/squad-virtual-accounts";
import { compareTransfers, isReconciliationDay } from "../worker/services/funding/transfer-reconciliation";
import { comparePayouts, type OurPayout } from "../worker/services/funding/payout-reconciliation";
import { createSquadPayoutClient, SANDBOX_SQUAD_MERCHANT_ID } from "../worker/providers/payments/squad-payouts";
import { setWebhookParameters, TELEGRAM_API_ROOT, TELEGRAM_SIMULATOR_PATH, telegramBotApiFor } from "../worker/providers/telegram/bot-api";
import { ensureDevVars, lockedBeforeWriting, SANDBOX_TELEGRAM_VARS, lockedWhileReading, openLocalD1, root } from "./local-env";

/**
 * The operator CLI: `npm run admin -- <command> [args] [--remote] [--persist-to DIR] [--actor NAME] [--reason TEXT]`.
 * Works on the local D1 (what `npm start` serves) or, with --remote, on the deployed one. Every change is audited.
 */
const USAGE = `Usage: npm run admin -- <command> [options]

Roles (the console at #/admin opens only for an operator with two-factor sign-in or a passkey):
  grant-operator <email> --reason "..."       make a user an operator
  revoke-operator <email> --reason "..."      take the operator role back (the console answers 404 at once)
  grant-reseller <email> --reason "..."       make a customer a reseller (sub-accounts, markups) without the terms screen
  revoke-reseller <email> --reason "..."      stop a reseller opening or buying as sub-accounts (their money stays)

Settings (each change is recorded in audit_log with --actor, --reason (required) and the previous value):
  settings [key]                               show settings (all, or one)
  set-rate <naira-per-usd> [--crypto-too]      exchange rate used for SMS and rental prices; --crypto-too also makes
                                               it the crypto deposit rate (rate_settings.rate), so get-rate's rate and
                                               crypto_rate are equal (docs/api.md, issue 27)
  set-markups --low <f> --high <f> --rent <f>  markups as fractions (0.5 = 50%)
  set-rate-settings --cryptomin <usd> --rate <naira-per-usd> --squadmin <naira>
  set-referral-reward <percent>                percent of a referred customer's first deposit
  set <key> '<json>'                           any setting: tiers, links, ads, sms_poll, ...
Money (always a ledger row, never a bare balance update):
  ledger <email|userId> [--limit 50]           a user's ledger
  credit <email|userId> <naira> --reason "..." [--message "..."]
                                               manual credit; the customer's history says "Adjustment by support"
                                               (+ the optional --message), the reason stays in the audit log
  debit <email|userId> <naira> --reason "..."  manual debit (refused if it would overdraw)
Operations:
  stuck [--minutes 30]                         waiting orders, overdue rentals, pending payments
  reviews [--minutes 30]                       the payment review queue: crypto arrivals held for review and card
                                               payments pending that long (resolve them in the console, Deposits)
  resolve-review <id> credit|refuse            not from the CLI: it cannot verify again with NOWPayments or Squad
                                               (docs/decisions/023); use the console's review queue
  reconcile                                    prove balance = sum(ledger) and balance >= 0 for every user
  reconcile-transfers --date YYYY-MM-DD        our credited bank transfers of that UTC day against Squad's virtual-account
                                               transaction list (read only at Squad: SQUAD_SECRET_KEY and SQUAD_BASE_URL
                                               from the environment; locally the running npm start's simulator)
  reconcile-payouts [--day YYYY-MM-DD]         the withdrawals asked for that UTC day (default today) against Squad's
                                               transfer list, by reference (SQUAD_SECRET_KEY, SQUAD_BASE_URL and
                                               SQUAD_MERCHANT_ID from the environment; locally the npm start's simulator)
  health [--hours 24]                          each upstream's balance against its floor (hidden when low), and per
                                               provider/service purchases, codes, refunds, median time to code
  audit [--limit 20] [--json]                  recent operator changes (--json: as stored)
The Telegram bot (issue 48, README "Telegram bot"):
  telegram-set-webhook                         registers PUBLIC_URL/api/telegram/webhook with Telegram's setWebhook
                                               (TELEGRAM_BOT_TOKEN, TELEGRAM_WEBHOOK_SECRET and PUBLIC_URL from the
                                               environment); without --remote and a token, the local npm start's Bot API
                                               simulator with .dev.vars' bot

Options: --remote (the deployed D1), --persist-to DIR (another local state dir), --actor NAME (default: $USER)`;

type Flags = Record<string, string | boolean>;

function parseArgs(argv: string[]): { positional: string[]; flags: Flags } {
  const positional: string[] = [];
  const flags: Flags = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg.startsWith("--")) {
      const name = arg.slice(2);
      const next = argv[i + 1];
      if (next !== undefined && !next.startsWith("--")) {
        flags[name] = next;
        i++;
      } else flags[name] = true;
    } else positional.push(arg);
  }
  return { positional, flags };
}

const { positional, flags } = parseArgs(process.argv.slice(2));
const [command, ...args] = positional;
const actor = typeof flags.actor === "string" ? flags.actor : (process.env.USER ?? userInfo().username ?? "operator");
const reason = typeof flags.reason === "string" ? flags.reason : null;

/**
 * The D1 the CLI works on, as a real binding: locally from Miniflare on the SQLite file `npm start` and `wrangler d1
 * execute --local` use, with --remote the deployed database through wrangler's getPlatformProxy and remote bindings,
 * so every change runs as drizzle queries with bound values in one batch, as in the console: nothing is rendered to
 * SQL text or split on `;` or newlines (issue 29). Only the D1 binding is configured, so nothing else starts.
 */
async function openDatabase() {
  const toml = readFileSync(path.join(root, "wrangler.toml"), "utf8");
  const block = toml.slice(toml.indexOf("[[d1_databases]]")).split(/\n\s*\n/)[0];
  const field = (name: string) => new RegExp(`^${name}\\s*=\\s*"([^"]*)"`, "m").exec(block)?.[1] ?? "";
  if (!flags.remote) {
    // Locally, the file `npm start` serves (--persist-to DIR, default .wrangler/state), opened by Miniflare itself: the
    // binding wrangler's getPlatformProxy would give, without loading wrangler (about 1.3 s of CPU of each command's 4;
    // the journeys run a dozen of them beside the browsers; decision 061).
    const local = await openLocalD1(typeof flags["persist-to"] === "string" ? flags["persist-to"] : undefined, field("database_id"));
    const d1 = local.d1 as unknown as D1Binding;
    return { d1, db: drizzle(d1, { schema: tables }), dispose: local.dispose };
  }
  const dir = mkdtempSync(path.join(tmpdir(), "admin-"));
  const configPath = path.join(dir, "wrangler.json");
  writeFileSync(
    configPath,
    JSON.stringify({
      name: "virtual-numbers-admin",
      compatibility_date: /^compatibility_date\s*=\s*"([^"]+)"/m.exec(toml)?.[1],
      d1_databases: [{ binding: "DB", database_name: field("database_name"), database_id: field("database_id"), remote: true }],
    }),
  );
  // Remote: wrangler's platform proxy with remote bindings (the account's real D1). Loaded here, not at the top: wrangler
  // is most of the CLI's start-up (about 1.6 s of CPU) and only --remote needs it.
  const { getPlatformProxy } = await import("wrangler");
  const proxy = await getPlatformProxy<{ DB: D1Binding }>({
    configPath,
    envFiles: [],
    persist: false,
    remoteBindings: true,
  });
  return { d1: proxy.env.DB, db: drizzle(proxy.env.DB, { schema: tables }), dispose: async () => {
      await proxy.dispose();
      rmSync(dir, { recursive: true, force: true });
    } };
}

/** The binding's shape as the CLI uses it (this Node project has no Workers types; drizzle's d1 driver reads it). */
type D1Binding = Parameters<typeof drizzle>[0] & { prepare(sql: string): { all<T>(): Promise<{ results?: T[] }> } };
type Database = Awaited<ReturnType<typeof openDatabase>>;
let database: Database;

/** A read: one statement of fixed SQL (no operator text in it), run as it is. */
async function rows(sqlText: string): Promise<Record<string, unknown>[]> {
  return whileLocked(async () => (await database.d1.prepare(sqlText).all<Record<string, unknown>>()).results ?? []);
}

/**
 * Locally the CLI's binding opens the same SQLite file a running `npm start` serves, and neither waits for the other's
 * lock (decision 044): a statement refused with SQLITE_BUSY was refused before anything committed, so it runs again
 * with back-off; an "internal error" (the lock met after the commit) is never re-run for a write. A read runs again on
 * either (it changes nothing).
 */
async function whileLocked<T>(run: () => Promise<T>, kind: "read" | "write" = "read"): Promise<T> {
  const mayRunAgain = kind === "read" ? lockedWhileReading : lockedBeforeWriting;
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (err) {
      if (flags.remote || attempt >= 8 || !mayRunAgain(String(err instanceof Error ? `${err.message} ${String(err.cause ?? "")}` : err))) throw err;
      await new Promise((resolve) => setTimeout(resolve, Math.min(100 * 2 ** (attempt - 1), 2000)));
    }
  }
}

function num(value: string | boolean | undefined, name: string): number {
  const n = Number(value);
  if (value === undefined || typeof value === "boolean" || !Number.isFinite(n)) fail(`${name} must be a number.`);
  return n;
}

function fail(message: string): never {
  console.error(`admin: ${message}`);
  process.exit(2);
}

async function findUser(ref: string | undefined) {
  if (!ref) fail("Give the user's email or id.");
  const [user] = await whileLocked(() => findUserQuery(database.db, ref));
  if (!user) fail(`No user with email or id "${ref}".`);
  return user;
}

/** One operator change and its audit row: one batch, every value bound (a reason's newlines and quotes stay as typed). */
async function change(build: (db: Database["db"]) => AdminChange, summary: string) {
  const queries = build(database.db);
  await whileLocked(() => database.db.batch(queries as [AdminChange[number], ...AdminChange]), "write");
  console.log(`${summary} (recorded in audit_log by ${actor}${reason ? `: ${reason}` : ""})`);
}

/**
 * Our side from D1 (the same SQL target as every command), Squad's side from Squad's own list through the real adapter:
 * read-only calls with the key in the environment (never stored by the CLI). Without --remote and without a key, the
 * local `npm start`'s sandbox Squad (/sandbox/squad-api, key from .dev.vars) answers, so the command runs offline.
 */
async function reconcileTransfersCommand(): Promise<void> {
  const day = typeof flags.date === "string" ? flags.date : "";
  if (!isReconciliationDay(day)) fail("Give the day as --date YYYY-MM-DD.");
  const start = Date.parse(`${day}T00:00:00Z`);
  const ours = (await rows(
    `SELECT id, account_number AS accountNumber, credited_kobo AS creditedKobo FROM payments
      WHERE provider = 'squad_transfer' AND status = 'credited' AND credited_at >= ${start} AND credited_at < ${start + 86_400_000}`,
  )) as { id: string; accountNumber: string | null; creditedKobo: number }[];
  let secretKey = process.env.SQUAD_SECRET_KEY ?? "";
  let baseUrl = process.env.SQUAD_BASE_URL ?? "";
  if (!flags.remote && !secretKey) {
    ensureDevVars();
    secretKey = /^SQUAD_SECRET_KEY=(.*)$/m.exec(readFileSync(path.join(root, ".dev.vars"), "utf8"))?.[1]?.trim() ?? "";
    baseUrl ||= `http://127.0.0.1:${process.env.PORT ?? "8787"}/sandbox/squad-api`;
  }
  if (!secretKey || !baseUrl) fail("Set SQUAD_SECRET_KEY and SQUAD_BASE_URL to read Squad's transaction list.");
  const squad = await createSquadVirtualAccountClient({ baseUrl, secretKey, fetch: (r) => fetch(r), timeoutMs: 20_000 }).listTransactions(day);
  const report = compareTransfers(day, ours, squad);
  console.log(`Bank transfers on ${day}: ours ${report.ours.count} (₦${report.ours.amount}), Squad's ${report.squad.count} (₦${report.squad.amount}).`);
  if (report.ok) {
    console.log("Every credited transfer is in Squad's list and every transfer in Squad's list was credited.");
    return;
  }
  console.table(report.differences);
  fail(`${report.differences.length} difference(s): look at each in the console (Deposits, Transfers).`);
}

/**
 * Issue 45: our withdrawals of a UTC day against Squad's transfer list (GET /payout/list, read only), matched by the
 * reference we sent (worker/services/funding/payout-reconciliation.ts). Keys from the environment as
 * reconcile-transfers; locally the npm start's sandbox Squad, whose merchant id is the simulator's. Exits 1 on any
 * difference, so a scheduled run can alert.
 */
async function reconcilePayoutsCommand(): Promise<void> {
  const day = typeof flags.day === "string" ? flags.day : new Date().toISOString().slice(0, 10);
  if (!isReconciliationDay(day)) fail("Give the day as --day YYYY-MM-DD.");
  const start = Date.parse(`${day}T00:00:00Z`);
  const ours = (await rows(
    `SELECT id, reference, status, amount_kobo AS amountKobo FROM withdrawals
      WHERE created_at >= ${start} AND created_at < ${start + 86_400_000} AND status <> 'approval' AND status <> 'held'`,
  )) as unknown as OurPayout[];
  const everyReference = new Set((await rows("SELECT reference FROM withdrawals")).map((r) => String(r.reference)));
  let secretKey = process.env.SQUAD_SECRET_KEY ?? "";
  let baseUrl = process.env.SQUAD_BASE_URL ?? "";
  let merchantId = process.env.SQUAD_MERCHANT_ID ?? "";
  if (!flags.remote && !secretKey) {
    ensureDevVars();
    secretKey = /^SQUAD_SECRET_KEY=(.*)$/m.exec(readFileSync(path.join(root, ".dev.vars"), "utf8"))?.[1]?.trim() ?? "";
    baseUrl ||= `http://127.0.0.1:${process.env.PORT ?? "8787"}/sandbox/squad-api`;
    merchantId ||= SANDBOX_SQUAD_MERCHANT_ID;
  }
  if (!secretKey || !baseUrl || !merchantId) fail("Set SQUAD_SECRET_KEY, SQUAD_BASE_URL and SQUAD_MERCHANT_ID to read Squad's transfer list.");
  const client = createSquadPayoutClient({ baseUrl, secretKey, merchantId, fetch: (r) => fetch(r), timeoutMs: 20_000 });
  const squad = await client.listTransfers();
  const report = comparePayouts(day, ours, squad, { referencePrefix: client.reference("wd_"), isOurs: (ref) => everyReference.has(ref) });
  console.log(`Withdrawals on ${day}: ours ${report.ours.count} (paid ₦${report.ours.paid}), in Squad's list ${report.squad.count} (paid ₦${report.squad.paid}).`);
  if (report.ok) {
    console.log("Every withdrawal agrees with Squad's transfer list, and Squad lists none we do not know.");
    return;
  }
  console.table(report.differences);
  fail(`${report.differences.length} difference(s): look at each in the console (Deposits, Withdrawals).`);
}

/**
 * setWebhook (https://core.telegram.org/bots/api#setwebhook) through the bot's own adapter: Telegram then posts every
 * update to PUBLIC_URL/api/telegram/webhook with the secret in X-Telegram-Bot-Api-Secret-Token. Deployed: the three
 * values from the environment (the same secrets the worker has), Telegram's https://api.telegram.org. Locally without a
 * token: .dev.vars' sandbox bot and the running npm start's simulator (/sandbox/telegram-api). The token is never
 * printed. getWebhookInfo then says what Telegram holds (https://core.telegram.org/bots/api#getwebhookinfo).
 */
async function telegramSetWebhookCommand(): Promise<void> {
  let vars: Record<string, string | undefined> = process.env;
  let apiRoot = TELEGRAM_API_ROOT;
  let publicUrl = process.env.PUBLIC_URL ?? "";
  if (!flags.remote && !process.env.TELEGRAM_BOT_TOKEN) {
    ensureDevVars();
    const devVars: Record<string, string> = Object.fromEntries(
      readFileSync(path.join(root, ".dev.vars"), "utf8")
        .split("\n")
        .map((line) => /^([A-Z0-9_]+)=(.*)$/.exec(line.trim()))
        .filter((m): m is RegExpExecArray => m !== null)
        .map((m) => [m[1], m[2].trim()]),
    );
    // As npm start does (scripts/start.ts): a .dev.vars made before the bot existed gets the sandbox bot.
    vars = devVars.PROVIDERS === "sandbox" && !devVars.TELEGRAM_BOT_TOKEN ? { ...devVars, ...SANDBOX_TELEGRAM_VARS } : devVars;
    publicUrl ||= `http://127.0.0.1:${process.env.PORT ?? "8787"}`;
    apiRoot = `${publicUrl}${TELEGRAM_SIMULATOR_PATH}`;
  }
  const token = vars.TELEGRAM_BOT_TOKEN ?? "";
  const secret = vars.TELEGRAM_WEBHOOK_SECRET ?? "";
  const username = (vars.TELEGRAM_BOT_USERNAME ?? "").replace(/^@/, "");
  const botId = /^(\d{1,20}):[A-Za-z0-9_-]{20,}$/.exec(token)?.[1];
  if (!botId || !secret || !username) fail("Set TELEGRAM_BOT_TOKEN (BotFather's), TELEGRAM_WEBHOOK_SECRET and TELEGRAM_BOT_USERNAME.");
  if (!/^https?:\/\/[^\s/]+/.test(publicUrl)) fail("Set PUBLIC_URL, the deployed app's https address (Telegram posts to PUBLIC_URL/api/telegram/webhook).");
  if (flags.remote && !publicUrl.startsWith("https://")) fail("Telegram posts only to an https URL: set PUBLIC_URL to the deployed https address.");
  const bot = telegramBotApiFor({ token, webhookSecret: secret, botUsername: username, botId: Number(botId) }, { apiRoot, fetch: (input, init) => fetch(input, init) });
  const { url, ...other } = setWebhookParameters(publicUrl, secret);
  await bot.api.setWebhook(url, other);
  const info = await bot.api.getWebhookInfo();
  console.log(`Telegram posts @${username}'s updates to ${info.url} (${(info.allowed_updates ?? ["every update type"]).join(", ")}; ${info.pending_update_count} pending).`);
  if (info.last_error_message) console.log(`Telegram's last delivery error: ${info.last_error_message}`);
}

const KNOWN_COMMANDS = new Set([
  "grant-operator", "revoke-operator", "grant-reseller", "revoke-reseller", "settings", "set-rate", "set-markups", "set-rate-settings", "set-referral-reward", "set", "ledger",
  "credit", "debit", "stuck", "reviews", "resolve-review", "health", "reconcile", "reconcile-transfers", "reconcile-payouts", "audit", "telegram-set-webhook",
]);

async function main(): Promise<void> {
  // The CLI's clock is this process's: the worker's rows take theirs from the services container (decision 062).
  const now = Date.now();
  switch (command) {
    case "grant-operator":
    case "revoke-operator": {
      const user = await findUser(args[0]);
      if (!reason) fail('A reason is required: --reason "..."');
      const role = command === "grant-operator" ? "operator" : "customer";
      return change((db) => setRoleSql(db, user.id, role, actor, reason, now), `${user.email} is now ${role === "operator" ? "an operator" : "a customer"}`);
    }
    case "grant-reseller":
    case "revoke-reseller": {
      const user = await findUser(args[0]);
      if (!reason) fail('A reason is required: --reason "..."');
      const grant = command === "grant-reseller";
      return change((db) => setResellerSql(db, user.id, grant, actor, reason, now), `${user.email} is ${grant ? "now a reseller" : "no longer a reseller"}`);
    }
    case "settings": {
      const list = await whileLocked(() =>
        args[0]
          ? database.db.select().from(tables.settings).where(eq(tables.settings.key, args[0]))
          : database.db.select().from(tables.settings).orderBy(tables.settings.key),
      );
      for (const r of list) console.log(`${r.key}: ${r.value}`);
      return;
    }
    case "set-rate": {
      const rate = num(args[0], "rate");
      if (!flags["crypto-too"]) return change((db) => setSettingSql(db, "exchange_rate", { rate }, actor, reason, now), `exchange_rate = ${args[0]}`);
      // The spec's original client shows get-rate's `rate` as the crypto deposit rate: one change makes both the same.
      const [current] = await whileLocked(() => database.db.select().from(tables.settings).where(eq(tables.settings.key, "rate_settings")));
      const funding = { ...SETTING_DEFAULTS.rate_settings, ...(current ? (JSON.parse(String(current.value)) as object) : {}), rate };
      return change(
        (db) => [...setSettingSql(db, "exchange_rate", { rate }, actor, reason, now), ...setSettingSql(db, "rate_settings", funding, actor, reason, now)],
        `exchange_rate = rate_settings.rate = ${args[0]}`,
      );
    }
    case "set-markups":
      return change(
        (db) => setSettingSql(db, "costs", { low_cost: num(flags.low, "--low"), high_cost: num(flags.high, "--high"), rent_cost: num(flags.rent, "--rent") }, actor, reason, now),
        "costs updated",
      );
    case "set-rate-settings":
      return change(
        (db) => setSettingSql(db, "rate_settings", { cryptomin: num(flags.cryptomin, "--cryptomin"), rate: num(flags.rate, "--rate"), squadmin: num(flags.squadmin, "--squadmin") }, actor, reason, now),
        "rate_settings updated",
      );
    case "set-referral-reward":
      return change((db) => setSettingSql(db, "referral_reward_percent", { percent: num(args[0], "percent") }, actor, reason, now), `referral reward = ${args[0]}%`);
    case "set": {
      if (!args[0] || args[1] === undefined) fail("Usage: set <key> '<json>'");
      let value: unknown;
      try {
        value = JSON.parse(args[1]);
      } catch {
        fail("The value must be JSON (quote it in the shell).");
      }
      return change((db) => setSettingSql(db, args[0], value, actor, reason, now), `${args[0]} updated`);
    }
    case "ledger": {
      const user = await findUser(args[0]);
      console.log(`${user.email}  balance ₦${(Number(user.balance_kobo) / 100).toFixed(2)}`);
      console.table(await whileLocked(() => userLedgerQuery(database.db, user.id, typeof flags.limit === "string" ? Number(flags.limit) : 50)));
      return;
    }
    case "credit":
    case "debit": {
      const user = await findUser(args[0]);
      const naira = num(args[1], "amount");
      if (naira <= 0) fail("The amount must be positive; use credit or debit for the direction.");
      if (!reason) fail("A reason is required: --reason \"...\"");
      const kobo = Math.round(naira * 100) * (command === "credit" ? 1 : -1);
      try {
        const message = typeof flags.message === "string" ? flags.message : null;
        await change((db) => manualEntrySql(db, { userId: user.id, amountKobo: kobo, reason, customerMessage: message, actor, entryId: randomUUID() }, now), `${command} ₦${naira.toFixed(2)} for ${user.email}`);
      } catch (err) {
        if (String(err).includes("CHECK") || String(err).includes("failed")) fail(`Refused: ${user.email} has ₦${(Number(user.balance_kobo) / 100).toFixed(2)}; a debit may not overdraw the wallet.`);
        throw err;
      }
      return;
    }
    case "stuck": {
      const list = await rows(stuckSql(typeof flags.minutes === "string" ? Number(flags.minutes) : 30, now));
      if (list.length === 0) console.log("Nothing stuck.");
      else console.table(list);
      return;
    }
    case "reviews": {
      const list = await rows(reviewQueueSql(typeof flags.minutes === "string" ? num(flags.minutes, "--minutes") : 30, now));
      if (list.length === 0) console.log("The review queue is empty.");
      else console.table(list);
      return;
    }
    case "resolve-review":
      // Crediting is deciding what arrived: only the worker can ask the provider (its keys are the worker's secrets),
      // price the arrival and credit through the provider's own confirmation. SQL from here could only trust a number.
      fail(
        "Reviews are resolved in the console only (#/admin/deposits, Review queue): it verifies the payment again with " +
          "NOWPayments or Squad, credits at most what their record is worth, once. The CLI has no provider access " +
          '(docs/decisions/023). For a true exception use `credit <email> <naira> --reason "..."`.',
      );
    // falls through: fail() never returns
    case "health": {
      const health = await rows(UPSTREAM_HEALTH_SQL);
      if (health.length === 0) console.log("No health check yet: the cron sweep records one every 5 minutes.");
      else console.table(health);
      const low = health.filter((h) => h.status === "low");
      for (const h of low) console.log(`HIDDEN: ${h.provider} is below its floor ($${h.balance_usd} < $${h.floor_usd}): top it up.`);
      const hours = typeof flags.hours === "string" ? num(flags.hours, "--hours") : 24;
      const stats = summariseProviderOrders((await rows(providerOrdersSql(Date.now() - hours * 3_600_000))) as unknown as ProviderOrderRow[]);
      console.log(`Orders in the last ${hours} h:`);
      if (stats.length === 0) console.log("none");
      else console.table(stats);
      return;
    }
    case "reconcile": {
      const [counts] = await rows(COUNT_USERS_SQL);
      const bad = await rows(RECONCILE_SQL);
      if (bad.length === 0) {
        console.log(`Ledger reconciled: ${counts?.users ?? 0} users, ${counts?.ledger_rows ?? 0} ledger rows, every balance = sum of its ledger rows and >= 0.`);
        return;
      }
      console.table(bad);
      fail(`${bad.length} user(s) do not reconcile.`);
    }
    // falls through: fail() never returns
    case "reconcile-transfers":
      return reconcileTransfersCommand();
    case "reconcile-payouts":
      return reconcilePayoutsCommand();
    case "audit": {
      const list = await rows(auditSql(typeof flags.limit === "string" ? Number(flags.limit) : 20));
      // --json: the rows exactly as stored (a reason's newlines and quotes included), for scripts and tests.
      if (flags.json) console.log(JSON.stringify(list));
      else console.table(list);
      return;
    }
    default:
      console.log(USAGE);
      if (command && command !== "help") process.exit(2);
  }
}

async function run(): Promise<void> {
  if (!command || command === "help" || !KNOWN_COMMANDS.has(command)) {
    console.log(USAGE);
    if (command && command !== "help") process.exit(2);
    return;
  }
  // What can be refused without the database is refused before it opens (starting workerd takes seconds).
  if (command === "reconcile-transfers" && !isReconciliationDay(typeof flags.date === "string" ? flags.date : "")) fail("Give the day as --date YYYY-MM-DD.");
  if (command === "reconcile-payouts" && flags.day !== undefined && !isReconciliationDay(typeof flags.day === "string" ? flags.day : "")) fail("Give the day as --day YYYY-MM-DD.");
  if (command === "resolve-review") return main();
  if (command === "telegram-set-webhook") return telegramSetWebhookCommand();
  if (!flags.remote) ensureDevVars();
  database = await openDatabase();
  try {
    await main();
  } finally {
    await database.dispose();
  }
}

run().catch((err: unknown) => fail(err instanceof Error ? err.message : String(err)));
