import { useCallback, useEffect, useSyncExternalStore } from "react";

export type ThemeChoice = "light" | "dark" | "system";
const KEY = "theme";
const listeners = new Set<() => void>();

function read(): ThemeChoice {
  const v = localStorage.getItem(KEY);
  return v === "light" || v === "dark" || v === "system" ? v : "system";
}
function systemDark(): boolean {
  return typeof matchMedia === "function" && matchMedia("(prefers-color-scheme: dark)").matches;
}
export function resolveTheme(choice: ThemeChoice): "light" | "dark" {
  return choice === "system" ? (systemDark() ? "dark" : "light") : choice;
}
function apply(choice: ThemeChoice) {
  document.documentElement.classList.toggle("dark", resolveTheme(choice) === "dark");
}

/** light / dark / system, persisted under the spec's `theme` key and applied to <html class="dark">. */
export function useTheme() {
  const choice = useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    read,
    () => "system" as ThemeChoice,
  );
  useEffect(() => apply(choice), [choice]);
  const setTheme = useCallback((next: ThemeChoice) => {
    localStorage.setItem(KEY, next);
    apply(next);
    for (const l of listeners) l();
  }, []);
  return { choice, resolved: resolveTheme(choice), setTheme };
}
