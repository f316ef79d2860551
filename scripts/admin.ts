import { randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir, userInfo } from "node:os";
import path from "node:path";
import {
  auditSql,
  COUNT_USERS_SQL,
  findUserSql,
  manualEntrySql,
  RECONCILE_SQL,
  renderSqlText,
  reviewQueueSql,
  setRoleSql,
  setSettingSql,
  stuckSql,
  type AdminStatement,
  providerOrdersSql,
  UPSTREAM_HEALTH_SQL,
  userLedgerSql,
} from "../worker/db/admin-sql";
import { SETTING_DEFAULTS } from "../schema/settings";
import { summariseProviderOrders, type ProviderOrderRow } from "../worker/services/sms/provider-stats";
import { createSquadVirtualAccountClient } from "../worker/providers/payments/squad-virtual-accounts";
import { compareTransfers, isReconciliationDay } from "../worker/services/funding/transfer-reconciliation";
import { ensureDevVars, root, wrangler } from "./local-env";

/**
 * The operator CLI: `npm run admin -- <command> [args] [--remote] [--persist-to DIR] [--actor NAME] [--reason TEXT]`.
 * Works on the local D1 (what `npm start` serves) or, with --remote, on the deployed one. Every change is audited.
 */
const USAGE = `Usage: npm run admin -- <command> [options]

Roles (the console at #/admin opens only for an operator with two-factor sign-in or a passkey):
  grant-operator <email> --reason "..."       make a user an operator
  revoke-operator <email> --reason "..."      take the operator role back (the console answers 404 at once)

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
  health [--hours 24]                          each upstream's balance against its floor (hidden when low), and per
                                               provider/service purchases, codes, refunds, median time to code
  audit [--limit 20] [--json]                  recent operator changes (--json: as stored)

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

function target(): string[] {
  if (flags.remote) return ["--remote"];
  const out = ["--local"];
  if (typeof flags["persist-to"] === "string") out.push("--persist-to", flags["persist-to"]);
  return out;
}

type Result = { results: Record<string, unknown>[]; success: boolean };

function run(sql: string): Result[] {
  const dir = mkdtempSync(path.join(tmpdir(), "admin-"));
  const file = path.join(dir, "statements.sql");
  writeFileSync(file, sql);
  const out = wrangler(["d1", "execute", "DB", ...target(), "--file", file, "--json", "--yes"], { quiet: true });
  return JSON.parse(out.slice(out.indexOf("["))) as Result[];
}

function rows(sql: string): Record<string, unknown>[] {
  return run(sql).flatMap((r) => r.results ?? []);
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

function findUser(ref: string | undefined) {
  if (!ref) fail("Give the user's email or id.");
  const [user] = rows(findUserSql(ref));
  if (!user) fail(`No user with email or id "${ref}".`);
  return user as { id: string; email: string; username: string; role: string; balance_kobo: number };
}

function change(statements: AdminStatement[], summary: string) {
  // Rendered as literals for wrangler's --file, which splits on semicolons outside them: a reason's newlines stay in it.
  run(renderSqlText(statements));
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
  const ours = rows(
    `SELECT id, account_number AS accountNumber, credited_kobo AS creditedKobo FROM payments
      WHERE provider = 'squad_transfer' AND status = 'credited' AND credited_at >= ${start} AND credited_at < ${start + 86_400_000}`,
  ) as { id: string; accountNumber: string | null; creditedKobo: number }[];
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

function main() {
  if (!flags.remote) ensureDevVars();
  switch (command) {
    case "grant-operator":
    case "revoke-operator": {
      const user = findUser(args[0]);
      if (!reason) fail('A reason is required: --reason "..."');
      const role = command === "grant-operator" ? "operator" : "customer";
      return change(setRoleSql(user.id, role, actor, reason), `${user.email} is now ${role === "operator" ? "an operator" : "a customer"}`);
    }
    case "settings": {
      const list = rows(args[0] ? `SELECT key, value FROM settings WHERE key = '${args[0].replaceAll("'", "''")}'` : "SELECT key, value FROM settings ORDER BY key");
      for (const r of list) console.log(`${r.key}: ${r.value}`);
      return;
    }
    case "set-rate": {
      const rate = num(args[0], "rate");
      if (!flags["crypto-too"]) return change(setSettingSql("exchange_rate", { rate }, actor, reason), `exchange_rate = ${args[0]}`);
      // The spec's original client shows get-rate's `rate` as the crypto deposit rate: one change makes both the same.
      const [current] = rows("SELECT value FROM settings WHERE key = 'rate_settings'");
      const funding = { ...SETTING_DEFAULTS.rate_settings, ...(current ? (JSON.parse(String(current.value)) as object) : {}), rate };
      return change(
        [...setSettingSql("exchange_rate", { rate }, actor, reason), ...setSettingSql("rate_settings", funding, actor, reason)],
        `exchange_rate = rate_settings.rate = ${args[0]}`,
      );
    }
    case "set-markups":
      return change(
        setSettingSql("costs", { low_cost: num(flags.low, "--low"), high_cost: num(flags.high, "--high"), rent_cost: num(flags.rent, "--rent") }, actor, reason),
        "costs updated",
      );
    case "set-rate-settings":
      return change(
        setSettingSql("rate_settings", { cryptomin: num(flags.cryptomin, "--cryptomin"), rate: num(flags.rate, "--rate"), squadmin: num(flags.squadmin, "--squadmin") }, actor, reason),
        "rate_settings updated",
      );
    case "set-referral-reward":
      return change(setSettingSql("referral_reward_percent", { percent: num(args[0], "percent") }, actor, reason), `referral reward = ${args[0]}%`);
    case "set": {
      if (!args[0] || args[1] === undefined) fail("Usage: set <key> '<json>'");
      let value: unknown;
      try {
        value = JSON.parse(args[1]);
      } catch {
        fail("The value must be JSON (quote it in the shell).");
      }
      return change(setSettingSql(args[0], value, actor, reason), `${args[0]} updated`);
    }
    case "ledger": {
      const user = findUser(args[0]);
      console.log(`${user.email}  balance ₦${(Number(user.balance_kobo) / 100).toFixed(2)}`);
      console.table(rows(userLedgerSql(user.id, typeof flags.limit === "string" ? Number(flags.limit) : 50)));
      return;
    }
    case "credit":
    case "debit": {
      const user = findUser(args[0]);
      const naira = num(args[1], "amount");
      if (naira <= 0) fail("The amount must be positive; use credit or debit for the direction.");
      if (!reason) fail("A reason is required: --reason \"...\"");
      const kobo = Math.round(naira * 100) * (command === "credit" ? 1 : -1);
      try {
        const message = typeof flags.message === "string" ? flags.message : null;
        change(manualEntrySql({ userId: user.id, amountKobo: kobo, reason, customerMessage: message, actor, entryId: randomUUID() }), `${command} ₦${naira.toFixed(2)} for ${user.email}`);
      } catch (err) {
        if (String(err).includes("CHECK") || String(err).includes("failed")) fail(`Refused: ${user.email} has ₦${(Number(user.balance_kobo) / 100).toFixed(2)}; a debit may not overdraw the wallet.`);
        throw err;
      }
      return;
    }
    case "stuck": {
      const list = rows(stuckSql(typeof flags.minutes === "string" ? Number(flags.minutes) : 30));
      if (list.length === 0) console.log("Nothing stuck.");
      else console.table(list);
      return;
    }
    case "reviews": {
      const list = rows(reviewQueueSql(typeof flags.minutes === "string" ? num(flags.minutes, "--minutes") : 30));
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
      const health = rows(UPSTREAM_HEALTH_SQL);
      if (health.length === 0) console.log("No health check yet: the cron sweep records one every 5 minutes.");
      else console.table(health);
      const low = health.filter((h) => h.status === "low");
      for (const h of low) console.log(`HIDDEN: ${h.provider} is below its floor ($${h.balance_usd} < $${h.floor_usd}): top it up.`);
      const hours = typeof flags.hours === "string" ? num(flags.hours, "--hours") : 24;
      const stats = summariseProviderOrders(rows(providerOrdersSql(Date.now() - hours * 3_600_000)) as unknown as ProviderOrderRow[]);
      console.log(`Orders in the last ${hours} h:`);
      if (stats.length === 0) console.log("none");
      else console.table(stats);
      return;
    }
    case "reconcile": {
      const [counts] = rows(COUNT_USERS_SQL);
      const bad = rows(RECONCILE_SQL);
      if (bad.length === 0) {
        console.log(`Ledger reconciled: ${counts?.users ?? 0} users, ${counts?.ledger_rows ?? 0} ledger rows, every balance = sum of its ledger rows and >= 0.`);
        return;
      }
      console.table(bad);
      fail(`${bad.length} user(s) do not reconcile.`);
    }
    // falls through: fail() never returns
    case "reconcile-transfers":
      reconcileTransfersCommand().catch((err: unknown) => fail(err instanceof Error ? err.message : String(err)));
      return;
    case "audit": {
      const list = rows(auditSql(typeof flags.limit === "string" ? Number(flags.limit) : 20));
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

try {
  main();
} catch (err) {
  fail(err instanceof Error ? err.message : String(err));
}
