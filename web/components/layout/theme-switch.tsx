import { Monitor, Moon, Sun } from "lucide-react";
import { cn } from "../../lib/cn";
import { useTheme } from "../../lib/theme";

const iconButton =
  "inline-flex h-8 w-8 items-center justify-center rounded-full transition-colors focus-visible:outline-2 focus-visible:outline-blue-600 cursor-pointer";

/**
 * The spec's theme switch: sun, a switch, moon. The switch flips light/dark; the icons pick one directly and a third
 * button follows the system setting. The choice is stored under `theme` (web/lib/theme.ts). Under 400 px only the switch
 * shows (issue 43: with a five-figure balance the header clipped it): it still flips light and dark in one press.
 */
export function ThemeSwitch() {
  const { choice, resolved, setTheme } = useTheme();
  const dark = resolved === "dark";
  const pressed = (value: typeof choice) =>
    choice === value ? "bg-slate-200 text-slate-900 dark:bg-slate-700 dark:text-white" : "text-slate-600 hover:text-slate-900 dark:text-slate-400 dark:hover:text-white";
  return (
    <div role="group" aria-label="Theme" className="flex items-center gap-1">
      <button type="button" className={cn(iconButton, pressed("light"), "max-[399px]:hidden")} aria-label="Light theme" aria-pressed={choice === "light"} onClick={() => setTheme("light")}>
        <Sun className="h-4 w-4" aria-hidden />
      </button>
      <button
        type="button"
        role="switch"
        aria-checked={dark}
        aria-label="Dark mode"
        onClick={() => setTheme(dark ? "light" : "dark")}
        className={cn(
          "relative inline-flex h-6 w-11 shrink-0 items-center rounded-full transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600 cursor-pointer",
          dark ? "bg-blue-500" : "bg-slate-300",
        )}
      >
        <span className={cn("inline-block h-5 w-5 rounded-full bg-white shadow transition-transform", dark ? "translate-x-5.5" : "translate-x-0.5")} />
      </button>
      <button type="button" className={cn(iconButton, pressed("dark"), "max-[399px]:hidden")} aria-label="Dark theme" aria-pressed={choice === "dark"} onClick={() => setTheme("dark")}>
        <Moon className="h-4 w-4" aria-hidden />
      </button>
      <button type="button" className={cn(iconButton, pressed("system"), "max-[399px]:hidden")} aria-label="Use the system theme" aria-pressed={choice === "system"} onClick={() => setTheme("system")}>
        <Monitor className="h-4 w-4" aria-hidden />
      </button>
    </div>
  );
}
