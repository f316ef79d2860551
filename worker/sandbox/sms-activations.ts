import { eq } from "drizzle-orm";
import type { Env } from "../env";
import { getDb } from "../db/client";
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
  /** "Request another code" (setStatus 3): how many were asked for, and when the last was (the next code arrives a delay later). */
  retries?: number;
  retryAt?: number;
}

export type SandboxPoll =
  | { kind: "waiting" }
  | { kind: "code"; code: string }
  /** Another code was asked for and has not come yet: the protocol shows the last one meanwhile. */
  | { kind: "retry"; code: string }
  | { kind: "cancelled" }
  | { kind: "error" };

const key = (id: string) => `sms-activation:${id}`;

export function sandboxDelayMs(env: Env): number {
  const delay = Number(env.SANDBOX_SMS_DELAY_MS ?? "10000");
  return Number.isFinite(delay) && delay >= 0 ? delay : 10000;
}

export async function createActivation(env: Env, country: SandboxCountry, service: SandboxService): Promise<SandboxActivation> {
  const id = String(100_000_000 + Math.floor(Math.random() * 899_999_999));
  const localLength = country.dial === "1" ? 10 : 9;
  let local = String(hash(`${id}:number`)).padStart(localLength, "7").slice(0, localLength);
  if (country.dial === "1") local = `5${local.slice(1)}`; // 555-style numbers: obviously not real
  const activation: SandboxActivation = {
    id,
    countryId: country.id,
    serviceName: service.name,
    number: `${country.dial}${local}`,
    createdAt: Date.now(),
    status: "waiting",
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

export function pollActivation(env: Env, activation: SandboxActivation): SandboxPoll {
  if (activation.serviceName === SANDBOX_ERROR) return { kind: "error" };
  if (activation.status === "cancelled") return { kind: "cancelled" };
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

function codeHasArrived(env: Env, activation: SandboxActivation): boolean {
  if (activation.serviceName === SANDBOX_NO_SMS) return false;
  return Date.now() >= (activation.codeAt ?? activation.createdAt + sandboxDelayMs(env));
}

/** Like the real upstreams: an unused number can be released; once a code came it cannot. */
export async function cancelActivation(env: Env, activation: SandboxActivation): Promise<"released" | "refused"> {
  if (activation.status === "cancelled") return "released";
  if (activation.status === "finished" || (activation.serviceName !== SANDBOX_ERROR && codeHasArrived(env, activation))) return "refused";
  await save(env, { ...activation, status: "cancelled" });
  return "released";
}

export async function finishActivation(env: Env, activation: SandboxActivation): Promise<void> {
  if (activation.status === "waiting") await save(env, { ...activation, status: "finished" });
}
