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

export function saveSession(user: SessionUser, token: string): void {
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
