import { and, eq, gte, sql } from "drizzle-orm";
import { koboToNaira } from "../../../schema/money";
import type { DeveloperShareView } from "../../../schema/api-keys";
import type { Db } from "../../db/client";
import { AppError } from "../../lib/errors";
import type { ApiCaller } from "../accounts";
import { type DeveloperRef, getSetting, isSandboxUser, isSubaccountWallet, ledger, rowsOf, runBatch, users } from "../kernel";
import { ensureSandboxAccount } from "./api-keys";

/**
 * The developers' `ref` revenue share (issue 46, docs/decisions/075). A software author puts their code on the purchases
 * their tool makes for its users, as the SMS-Activate family documents it: getNumber's `$ref` "transfer the referral
 * ID" (https://sms-activate.org/en/api2, https://smsbower.org/api?page=client) and on /api/v1 the order's `ref` field.
 * The developer earns `developer_ref.percent` of our price of each order kept (credited by the order's code move,
 * reversed by an operator's refund of it: sms/sms-transitions.ts). The code is the account's referral code: one code a
 * customer already has and shares, shown with the share on the API reference page.
 */

/** Why a `ref` earns nothing, as the v1 API says it (400 naming the field); the protocol ignores the parameter instead. */
const UNKNOWN_REF = "`ref` is not a developer code we know: use the code shown on the developer page (#/developers), or leave ref out.";
const OWN_REF = "`ref` names your own account: a purchase cannot earn a share for the account that pays for it (or its reseller).";

/**
 * The developer a purchase's `ref` names, and the share it earns, or an AppError (400, field `ref`) and nothing
 * written. Refused: a code nobody has; a code of an account that cannot earn (blocked, a sandbox or sub-account
 * wallet, which never sign in); the buyer's own code, which includes a reseller naming itself while buying as its
 * sub-account (the key's owner is the buyer). A test key's purchase (sandbox money) earns into the developer's sandbox
 * wallet, created if needed, so a tool can be tried end to end; a live purchase into the developer's wallet.
 */
export async function developerRefFor(db: Db, caller: Pick<ApiCaller, "key" | "user">, code: string): Promise<DeveloperRef> {
  const normalized = code.trim().toUpperCase();
  const [developer] = await db
    .select({ id: users.id, username: users.username, blockedAt: users.blockedAt, parentUserId: users.parentUserId })
    .from(users)
    .where(eq(users.referralCode, normalized))
    .limit(1);
  if (!developer || developer.blockedAt !== null || developer.parentUserId !== null || isSandboxUser(developer.id) || isSubaccountWallet(developer.id)) {
    throw new AppError("VALIDATION_FAILED", UNKNOWN_REF, { field: "ref" });
  }
  if (developer.id === caller.key.userId) throw new AppError("VALIDATION_FAILED", OWN_REF, { field: "ref" });
  const { percent } = await getSetting(db, "developer_ref");
  const walletId = isSandboxUser(caller.user.id) ? await ensureSandboxAccount(db, developer) : developer.id;
  return { walletId, basisPoints: Math.round(percent * 100) };
}

/** The protocol's form: a `ref` that earns nothing is ignored (no error word is documented for it), never a refusal. */
export async function protocolDeveloperRef(db: Db, caller: Pick<ApiCaller, "key" | "user">, code: string): Promise<DeveloperRef | null> {
  if (!code) return null;
  try {
    return await developerRefFor(db, caller, code);
  } catch (err) {
    if (err instanceof AppError && err.status === 400) return null;
    throw err;
  }
}

const DAY_MS = 86_400_000;

/**
 * The developer page's figures (web/routes/developers.tsx): the code, the share, and what it earned on the live
 * wallet, net of reversals, in all and over the last 30 days, with the count of orders that still earn (credited and
 * not reversed). One batch of two ledger reads; ref_share rows are only ever the share and its reversal.
 */
export async function developerShareSummary(db: Db, user: { id: string; referralCode: string }, now: number): Promise<DeveloperShareView> {
  const figures = (since: number) =>
    rowsOf(
      db
        .select({
          kobo: sql<number>`COALESCE(SUM(${ledger.amountKobo}), 0)`,
          orders: sql<number>`COALESCE(SUM(CASE WHEN ${ledger.amountKobo} > 0 THEN 1 ELSE -1 END), 0)`,
        })
        .from(ledger)
        .where(and(eq(ledger.userId, user.id), eq(ledger.kind, "ref_share"), gte(ledger.createdAt, since))),
    );
  const [{ percent }, read] = await Promise.all([getSetting(db, "developer_ref"), runBatch(db, { all: figures(0), recent: figures(now - 30 * DAY_MS) })]);
  const all = read.all[0];
  const recent = read.recent[0];
  return {
    code: user.referralCode,
    percent,
    earned: koboToNaira(Number(all?.kobo ?? 0)),
    orders: Number(all?.orders ?? 0),
    last_30_days: { earned: koboToNaira(Number(recent?.kobo ?? 0)), orders: Number(recent?.orders ?? 0) },
    currency: "NGN",
  };
}
