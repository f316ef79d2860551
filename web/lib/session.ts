import type { SessionUser } from "../../schema/accounts";

// The spec's storage keys: the user under `auth` and `userData`, the token under `authToken` and inside `auth`.
const KEYS = { auth: "auth", token: "authToken", user: "userData" } as const;

export function getToken(): string | null {
  return localStorage.getItem(KEYS.token);
}

export function getUser(): SessionUser | null {
  try {
    const raw = localStorage.getItem(KEYS.user);
    return raw ? (JSON.parse(raw) as SessionUser) : null;
  } catch {
    return null;
  }
}

/**
 * What this browser keeps for the signed-in customer besides the session (issue 12, hole 10: shared devices). Pending
 * card payments (with their Verify button), the pending SMS request, the crypto invoice in progress, the balance eye and
 * the persisted query cache are the customer's own: forgotten at logout (and whenever the session ends) so the next
 * person on this browser never sees them. The tour flags are kept at logout (the same customer signing in again is not
 * shown the tour twice) but belong to the customer recorded in OWNER_KEY: another customer signing in starts afresh.
 * Key names are the components' (and the spec's); web/lib/session.test.ts checks the lists against them.
 */
export const PRIVATE_LOCAL_KEYS = ["pending-payments", "pending-sms-request", "show-balance"] as const;
export const PRIVATE_SESSION_KEYS = ["active-invoice", "REACT_QUERY_OFFLINE_CACHE"] as const;
export const PER_USER_LOCAL_KEYS = ["dashboardTourCompleted", "userFirstVisit"] as const;
export const OWNER_KEY = "storage-owner";

function forgetPrivateStorage(): void {
  for (const key of PRIVATE_LOCAL_KEYS) localStorage.removeItem(key);
  for (const key of PRIVATE_SESSION_KEYS) sessionStorage.removeItem(key);
}

export function saveSession(user: SessionUser, token: string): void {
  // The customer this browser's stored data belongs to: the one recorded, else the one signed in now (if any).
  const owner = localStorage.getItem(OWNER_KEY) ?? getUser()?.userId ?? null;
  if (owner !== user.userId) {
    // Another customer (or nobody known): nothing of a previous one survives.
    forgetPrivateStorage();
    for (const key of PER_USER_LOCAL_KEYS) localStorage.removeItem(key);
  }
  localStorage.setItem(OWNER_KEY, user.userId);
  localStorage.setItem(KEYS.token, token);
  localStorage.setItem(KEYS.user, JSON.stringify(user));
  localStorage.setItem(KEYS.auth, JSON.stringify({ user, token }));
  notify();
}

export function updateStoredUser(patch: Partial<SessionUser>): void {
  const user = getUser();
  const token = getToken();
  if (user && token) saveSession({ ...user, ...patch }, token);
}

export function clearSession(): void {
  localStorage.removeItem(KEYS.token);
  localStorage.removeItem(KEYS.user);
  localStorage.removeItem(KEYS.auth);
  forgetPrivateStorage();
  notify();
}

export function isSignedIn(): boolean {
  return Boolean(getToken() && getUser());
}

const listeners = new Set<() => void>();
function notify() {
  for (const l of listeners) l();
}
/** For useSyncExternalStore: re-render when the session changes (login, logout, a 401). */
export function subscribeSession(listener: () => void): () => void {
  listeners.add(listener);
  const onStorage = (e: StorageEvent) => {
    if (e.key === KEYS.token || e.key === KEYS.user) listener();
  };
  window.addEventListener("storage", onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener("storage", onStorage);
  };
}
