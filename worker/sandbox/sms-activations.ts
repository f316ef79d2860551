import { eq } from "drizzle-orm";
import type { Env } from "../config";
import { getDb } from "../db/client";
import { TtlCache } from "../lib/cache";
import { sandboxState } from "../db/tables";
import { hash, SANDBOX_ERROR, SANDBOX_NO_SMS, type SandboxCountry, type SandboxService } from "./sms-catalogue";

/**
 * Activations sold by the sandbox simulators, kept in D1 (sandbox_state) so every isolate, the pollers and the API
 * agree. A code "arrives" SANDBOX_SMS_DELAY_MS after the number was taken, except for the two misbehaving services.
 */
export interface SandboxActivation {
  id: string;
  countryId: string;
  serviceName: string;
  number: string;
  createdAt: number;
  /** When the code becomes available upstream, set only with SANDBOX_SMS_DELAY_JITTER_MS (otherwise createdAt + delay). */
  codeAt?: number;
  status: "waiting" | "cancelled" | "finished";
  /** Which simulated account sold it, and what it charged there (refunded on cancel, like the upstreams). */
  account?: SandboxAccount;
  charged?: number;
  /** "Request another code" (setStatus 3): how many were asked for, and when the last was (the next code arrives a delay later). */
  retries?: number;
  retryAt?: number;
}

export type SandboxPoll =
  | { kind: "waiting" }
  | { kind: "code"; code: string }
  /** Another code was asked for and has not come yet: the protocol shows the last one meanwhile. */
  | { kind: "retry"; code: string }
  | { kind: "cancelled" };

/**
 * Our simulated accounts at the upstreams: DaisySMS holds dollars, sms-man (activation and rent API, one token) holds
 * roubles like the documents' samples. Numbers are charged when taken and refunded when released, so NO_MONEY /
 * "balance" errors and the health floor can be reached by lowering a balance (POST /sandbox/upstreams/balance).
 */
export type SandboxAccount = "swift" | "smsman" | "herosms" | "grizzly";
export const SANDBOX_ACCOUNTS: readonly SandboxAccount[] = ["swift", "smsman", "herosms", "grizzly"];
export const SANDBOX_START_BALANCE: Record<SandboxAccount, number> = { swift: 1000, smsman: 90_000, herosms: 1000, grizzly: 1000 };
/** Roubles per dollar in the sandbox market (sms-man's prices are the dollar figures times this). */
export const SANDBOX_RUB_PER_USD = 90;

const balanceKey = (account: SandboxAccount) => `upstream-balance:${account}`;

export async function sandboxBalance(env: Env, account: SandboxAccount): Promise<number> {
  const row = await env.DB.prepare("SELECT value FROM sandbox_state WHERE key = ?").bind(balanceKey(account)).first<{ value: string }>();
  const value = row ? Number(row.value) : SANDBOX_START_BALANCE[account];
  return Number.isFinite(value) ? value : SANDBOX_START_BALANCE[account];
}

export async function setSandboxBalance(env: Env, account: SandboxAccount, amount: number): Promise<void> {
  await env.DB.prepare(
    "INSERT INTO sandbox_state (key, value, updated_at) VALUES (?1, ?2, ?3) ON CONFLICT(key) DO UPDATE SET value = ?2, updated_at = ?3",
  )
    .bind(balanceKey(account), String(Math.round(amount * 100) / 100), Date.now())
    .run();
}

/** Takes `amount` from the account; false (nothing taken) when it is short, like NO_MONEY upstream. */
export async function chargeSandbox(env: Env, account: SandboxAccount, amount: number): Promise<boolean> {
  const balance = await sandboxBalance(env, account);
  if (balance + 1e-9 < amount) return false;
  await setSandboxBalance(env, account, balance - amount);
  return true;
}

async function refundSandbox(env: Env, activation: SandboxActivation): Promise<void> {
  if (activation.account && activation.charged) {
    await setSandboxBalance(env, activation.account, (await sandboxBalance(env, activation.account)) + activation.charged);
  }
}

/**
 * How many activations an account may hold at once, as the upstream documents it: DaisySMS "You may have 20 active
 * rentals at a time. Once you get the code or cancel the rental, you can rent a new number. [...] If you need a higher
 * limit, please contact support." (https://daisysms.com/docs/api, General info). sms-man documents no limit on
 * activations held at once: its /control/limits is the stock of numbers per application and country
 * (https://sms-man.com/api), so its simulator has none (null).
 */
export const DOCUMENTED_SLOT_LIMITS: Record<SandboxAccount, number | null> = { swift: 20, smsman: null, herosms: null, grizzly: null };

const slotLimitKey = (account: SandboxAccount) => `upstream-slot-limit:${account}`;
const slotLimitCache = new TtlCache<SandboxAccount, number | null>(1000);

/**
 * The account's limit in this sandbox: the documented one, unless a run raised it (POST /sandbox/upstreams/slots, what
 * "contact support for a higher limit" buys; the rate benchmark raises it to find our own ceiling and says so). Read
 * from D1 so every isolate agrees, cached a second per isolate so a purchase does not pay a read for it.
 */
export async function slotLimit(env: Env, account: SandboxAccount): Promise<number | null> {
  const cached = slotLimitCache.get(account);
  if (cached) return cached.value;
  const row = await env.DB.prepare("SELECT value FROM sandbox_state WHERE key = ?").bind(slotLimitKey(account)).first<{ value: string }>();
  const limit = row ? (row.value === "none" ? null : Number(row.value)) : DOCUMENTED_SLOT_LIMITS[account];
  slotLimitCache.set(account, limit);
  return limit;
}

/** Sets the account's limit (null: none); "documented" puts the upstream's own back. */
export async function setSlotLimit(env: Env, account: SandboxAccount, limit: number | null | "documented"): Promise<void> {
  if (limit === "documented") {
    await env.DB.prepare("DELETE FROM sandbox_state WHERE key = ?").bind(slotLimitKey(account)).run();
  } else {
    await env.DB.prepare(
      "INSERT INTO sandbox_state (key, value, updated_at) VALUES (?1, ?2, ?3) ON CONFLICT(key) DO UPDATE SET value = ?2, updated_at = ?3",
    )
      .bind(slotLimitKey(account), limit === null ? "none" : String(limit), Date.now())
      .run();
  }
  slotLimitCache.delete(account);
}

/** Whether the account may take one more number now (counting only when it has a limit: the count reads every activation). */
export async function hasFreeSlot(env: Env, account: SandboxAccount): Promise<boolean> {
  const limit = await slotLimit(env, account);
  return limit === null || (await activeActivations(env, account)) < limit;
}

/** Numbers out on an account that have neither a code nor an end (DaisySMS allows 20 at once). */
export async function activeActivations(env: Env, account: SandboxAccount): Promise<number> {
  const { results } = await env.DB.prepare("SELECT value FROM sandbox_state WHERE key LIKE 'sms-activation:%'").all<{ value: string }>();
  const cutoff = Date.now() - ACTIVATION_LIFETIME_MS;
  return results
    .map((r) => JSON.parse(r.value) as SandboxActivation)
    .filter((a) => a.account === account && a.status === "waiting" && a.createdAt > cutoff && !codeHasArrived(env, a)).length;
}

/** An unanswered activation lapses upstream after this (DaisySMS rentals last minutes; we use 20). */
export const ACTIVATION_LIFETIME_MS = 20 * 60_000;

const key = (id: string) => `sms-activation:${id}`;

export function sandboxDelayMs(env: Env): number {
  const delay = Number(env.SANDBOX_SMS_DELAY_MS ?? "10000");
  return Number.isFinite(delay) && delay >= 0 ? delay : 10000;
}

export async function createActivation(
  env: Env,
  country: SandboxCountry,
  service: SandboxService,
  charge?: { account: SandboxAccount; amount: number },
  /** getExtraActivation: the past activation's number, taken again under a new id; or the number a choice picked. */
  sameNumberAs?: Pick<SandboxActivation, "number">,
): Promise<SandboxActivation> {
  const id = String(100_000_000 + Math.floor(Math.random() * 899_999_999));
  const localLength = country.dial === "1" ? 10 : 9;
  let local = String(hash(`${id}:number`)).padStart(localLength, "7").slice(0, localLength);
  if (country.dial === "1") local = `5${local.slice(1)}`; // 555-style numbers: obviously not real
  const activation: SandboxActivation = {
    id,
    countryId: country.id,
    serviceName: service.name,
    number: sameNumberAs?.number ?? `${country.dial}${local}`,
    createdAt: Date.now(),
    status: "waiting",
    ...(charge ? { account: charge.account, charged: charge.amount } : {}),
  };
  // The code-to-screen bench (bench/browser.ts) spreads arrivals over the poller's 6 s tick with a random jitter. Only
  // then is codeAt stored: tests move an activation's createdAt to make its code arrive (or not) and must keep that.
  const jitter = Number(env.SANDBOX_SMS_DELAY_JITTER_MS ?? "0");
  if (Number.isFinite(jitter) && jitter > 0) activation.codeAt = activation.createdAt + sandboxDelayMs(env) + Math.floor(Math.random() * jitter);
  await getDb(env.DB).insert(sandboxState).values({ key: key(id), value: JSON.stringify(activation), updatedAt: Date.now() });
  return activation;
}

export async function readActivation(env: Env, id: string): Promise<SandboxActivation | null> {
  const [row] = await getDb(env.DB).select().from(sandboxState).where(eq(sandboxState.key, key(id))).limit(1);
  return row ? (JSON.parse(row.value) as SandboxActivation) : null;
}

async function save(env: Env, activation: SandboxActivation): Promise<void> {
  await getDb(env.DB)
    .update(sandboxState)
    .set({ value: JSON.stringify(activation), updatedAt: Date.now() })
    .where(eq(sandboxState.key, key(activation.id)));
}

/** The code a real SMS would carry: six digits derived from the activation (and which retry), stable across polls. */
export function sandboxCode(id: string, retry = 0): string {
  return String(hash(retry === 0 ? `${id}:code` : `${id}:code:${retry}`) % 1_000_000).padStart(6, "0");
}

/** The whole SMS a sandbox number receives, as a service would write it (the code inside it). */
export function sandboxSmsText(serviceName: string, code: string): string {
  return `Your ${serviceName} verification code is ${code}. Don't share this code with anyone.`;
}

/**
 * 'Sandbox Error' numbers are cancelled by the upstream itself (STATUS_CANCEL), the protocol's own failure. A number
 * that got no SMS within its lifetime lapses upstream the same way: SMS-Activate-protocol activations last about 20
 * minutes and then end as cancelled, refunded to the buyer (https://sms-activate.org/en/api2 getStatus STATUS_CANCEL;
 * DaisySMS, https://daisysms.com/docs/api, counts only numbers still waiting against the 20 active ones).
 */
export function pollActivation(env: Env, activation: SandboxActivation): SandboxPoll {
  if (activation.serviceName === SANDBOX_ERROR) return { kind: "cancelled" };
  if (activation.status === "cancelled") return { kind: "cancelled" };
  if (activation.status === "waiting" && !codeHasArrived(env, activation) && lapsed(activation)) return { kind: "cancelled" };
  if (!codeHasArrived(env, activation)) return { kind: "waiting" };
  const retries = activation.retries ?? 0;
  if (retries > 0 && Date.now() < (activation.retryAt ?? 0) + sandboxDelayMs(env)) {
    return { kind: "retry", code: sandboxCode(activation.id, retries - 1) };
  }
  return { kind: "code", code: sandboxCode(activation.id, retries) };
}

/** setStatus 3: only a number that received its code and is still open can be asked for another. */
export async function retryActivation(env: Env, activation: SandboxActivation): Promise<"accepted" | "refused"> {
  if (activation.status !== "waiting" || activation.serviceName === SANDBOX_ERROR || !codeHasArrived(env, activation)) return "refused";
  await save(env, { ...activation, retries: (activation.retries ?? 0) + 1, retryAt: Date.now() });
  return "accepted";
}

function lapsed(activation: SandboxActivation, now = Date.now()): boolean {
  return now - activation.createdAt >= ACTIVATION_LIFETIME_MS;
}

/**
 * 'Sandbox No-SMS' is a route that never delivers: no SMS ever reaches a USA number sold for it (the only country of
 * the sandbox's DaisySMS, also sold by its sms-man). From any other country the same service delivers like the rest,
 * so "if no code comes, try another number" can be tried end to end: the USA route times out, the next one works.
 */
export const NO_SMS_COUNTRY = "5";

function codeHasArrived(env: Env, activation: SandboxActivation): boolean {
  if (activation.serviceName === SANDBOX_NO_SMS && activation.countryId === NO_SMS_COUNTRY) return false;
  return Date.now() >= (activation.codeAt ?? activation.createdAt + sandboxDelayMs(env));
}

/**
 * Like the real upstreams: an unused number can be released (and its price goes back to our account); once a code
 * came it cannot ("has_code"); a number that was already cancelled or finished is "gone".
 */
export async function cancelActivation(env: Env, activation: SandboxActivation): Promise<"released" | "has_code" | "gone"> {
  if (activation.status !== "waiting" || activation.serviceName === SANDBOX_ERROR) return "gone";
  if (codeHasArrived(env, activation)) return "has_code";
  if (lapsed(activation)) {
    // Lapsed upstream: already over, and its price went back to our account when it lapsed.
    await save(env, { ...activation, status: "cancelled" });
    await refundSandbox(env, activation);
    return "gone";
  }
  await save(env, { ...activation, status: "cancelled" });
  await refundSandbox(env, activation);
  return "released";
}

/**
 * getExtraActivation (https://daisysms.com/docs/api): only a past activation that received its code can be taken again
 * (one that never got a message, was cancelled, or is unknown answers BAD_ID).
 */
export function canReactivate(env: Env, activation: SandboxActivation): boolean {
  return activation.status !== "cancelled" && activation.serviceName !== SANDBOX_ERROR && codeHasArrived(env, activation);
}

export async function finishActivation(env: Env, activation: SandboxActivation): Promise<void> {
  if (activation.status === "waiting") await save(env, { ...activation, status: "finished" });
}
