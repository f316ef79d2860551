import { useSyncExternalStore } from "react";
import type { SessionUser } from "../../schema/accounts";
import { getUser, subscribeSession } from "./session";

// useSyncExternalStore needs a stable snapshot: re-use the parsed user until the stored text changes.
let cached: { raw: string; user: SessionUser | null } = { raw: "null", user: null };
function snapshot(): SessionUser | null {
  const user = getUser();
  const raw = JSON.stringify(user);
  if (raw !== cached.raw) cached = { raw, user };
  return cached.user;
}

/** The signed-in user (or null), re-rendering on login, logout, a profile update or a 401 in any tab. */
export function useSessionUser(): SessionUser | null {
  return useSyncExternalStore(subscribeSession, snapshot, () => null);
}
