import type { HTMLAttributes } from "react";
import { cn } from "../../lib/cn";

export type BadgeVariant = "default" | "secondary" | "destructive" | "outline" | "success" | "warning";

const variants: Record<BadgeVariant, string> = {
  default: "bg-blue-600 text-white dark:bg-blue-500 dark:text-slate-950",
  secondary: "bg-slate-100 text-slate-800 dark:bg-slate-800 dark:text-slate-200",
  destructive: "bg-red-600 text-white",
  outline: "border border-slate-300 text-slate-700 dark:border-slate-600 dark:text-slate-300",
  success: "bg-emerald-100 text-emerald-800 dark:bg-emerald-900/50 dark:text-emerald-300",
  warning: "bg-amber-100 text-amber-800 dark:bg-amber-900/50 dark:text-amber-300",
};

export function Badge({ variant = "default", className, ...props }: HTMLAttributes<HTMLSpanElement> & { variant?: BadgeVariant }) {
  return (
    <span
      className={cn("inline-flex items-center gap-1 rounded-full px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap", variants[variant], className)}
      {...props}
    />
  );
}
