import { useSyncExternalStore } from "react";
import { SMS_PHASES, type SmsPhase } from "../../../schema/constants";

/**
 * The spec's cached pending SMS request, kept in localStorage so it survives a reload and is shared with a second tab
 * (the storage event). It only remembers WHICH order to show: the server's GET /api/sms/status is the truth about it.
 */
export type PendingSmsRequest = {
  request_id: string;
  debitRef?: string;
  number: string;
  purchased_number: string;
  /** Naira, as the server charged it. */
  cost: number;
  sms: string | null;
  /** The server's phase when this browser last read it (issue 29), shown after a reload until the server answers. */
  phase?: SmsPhase;
  createdAt: number;
  /**
   * The customer's other numbers, each its own order and its own entry in the same dialog: those bought with it
   * ("several numbers at once") and those still waiting from earlier purchases (issue 28: buying another number while
   * one waits never replaces the first).
   */
  others?: { request_id: string; number: string }[];
  /** "Try another number" moved to a number in another country: where the last one was (issue 28). */
  switchedFrom?: string;
};

/** The most entries one dialog follows besides its own number (five at once, plus earlier ones still waiting). */
export const MAX_OTHER_REQUESTS = 9;

export const PENDING_SMS_KEY = "pending-sms-request";

/** A request older than this is left to the server's sweep: the spec's 15 polls x 6 s plus a generous margin. */
export const PENDING_MAX_AGE_MS = 60 * 60_000;

function parse(raw: string | null, now: number): PendingSmsRequest | null {
  if (!raw) return null;
  try {
    const value = JSON.parse(raw) as Partial<PendingSmsRequest>;
    if (!value || typeof value.request_id !== "string" || !value.request_id) return null;
    if (typeof value.createdAt !== "number" || now - value.createdAt > PENDING_MAX_AGE_MS) return null;
    return {
      request_id: value.request_id,
      debitRef: value.debitRef,
      number: String(value.number ?? value.purchased_number ?? ""),
      purchased_number: String(value.purchased_number ?? value.number ?? ""),
      cost: Number(value.cost ?? 0),
      sms: typeof value.sms === "string" ? value.sms : null,
      phase: (SMS_PHASES as readonly unknown[]).includes(value.phase) ? value.phase : undefined,
      createdAt: value.createdAt,
      others: Array.isArray(value.others)
        ? value.others
            .filter((o) => o && typeof o.request_id === "string" && o.request_id)
            .slice(0, MAX_OTHER_REQUESTS)
            .map((o) => ({ request_id: o.request_id, number: String(o.number ?? "") }))
        : undefined,
      switchedFrom: typeof value.switchedFrom === "string" && value.switchedFrom ? value.switchedFrom.slice(0, 80) : undefined,
    };
  } catch {
    return null;
  }
}

const listeners = new Set<() => void>();
function emit() {
  for (const l of listeners) l();
}

// useSyncExternalStore needs a stable snapshot: cache the parsed value per raw string.
let cachedRaw: string | null = null;
let cachedValue: PendingSmsRequest | null = null;

export function loadPendingRequest(now: number = Date.now()): PendingSmsRequest | null {
  const raw = localStorage.getItem(PENDING_SMS_KEY);
  if (raw === cachedRaw && cachedValue) return cachedValue;
  const value = parse(raw, now);
  if (raw && !value) localStorage.removeItem(PENDING_SMS_KEY);
  cachedRaw = raw;
  cachedValue = value;
  return value;
}

export function savePendingRequest(request: PendingSmsRequest): void {
  localStorage.setItem(PENDING_SMS_KEY, JSON.stringify(request));
  emit();
}

/** Records the server's phase and `sms` (the code or failure text: the spec keeps `sms` there) on the cached request. */
export function updatePendingOrder(requestId: string, order: { phase: SmsPhase; sms: string | null }): void {
  const current = loadPendingRequest();
  if (!current || current.request_id !== requestId || (current.sms === order.sms && current.phase === order.phase)) return;
  savePendingRequest({ ...current, sms: order.sms, phase: order.phase });
}

export function clearPendingRequest(requestId?: string): void {
  const current = loadPendingRequest();
  if (requestId && current && current.request_id !== requestId) return;
  localStorage.removeItem(PENDING_SMS_KEY);
  emit();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  const onStorage = (e: StorageEvent) => {
    if (e.key === PENDING_SMS_KEY || e.key === null) listener();
  };
  window.addEventListener("storage", onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener("storage", onStorage);
  };
}

/** The pending request of this browser, live across tabs. */
export function usePendingRequest(): PendingSmsRequest | null {
  return useSyncExternalStore(subscribe, () => loadPendingRequest(), () => null);
}
