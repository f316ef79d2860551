import { useId, type ReactNode } from "react";
import { cn } from "../../lib/cn";
import { Label } from "./label";

type FieldControlProps = { id: string; "aria-invalid": boolean; "aria-describedby"?: string };

/**
 * A labelled form control with its hint and error text. The control is a render prop so it gets the id and the aria
 * wiring (the error is announced by screen readers through aria-describedby):
 * `<Field label="Email" error={errors.email}>{(p) => <Input {...p} type="email" />}</Field>`.
 */
export function Field({
  label,
  error,
  hint,
  className,
  children,
}: {
  label: ReactNode;
  error?: string;
  hint?: ReactNode;
  className?: string;
  children: (props: FieldControlProps) => ReactNode;
}) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className={cn("flex flex-col gap-1.5", className)}>
      <Label htmlFor={id}>{label}</Label>
      {children({ id, "aria-invalid": Boolean(error), "aria-describedby": describedBy })}
      {hint ? (
        <p id={hintId} className="text-xs text-slate-600 dark:text-slate-400">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} role="alert" className="text-xs font-medium text-red-600 dark:text-red-400">
          {error}
        </p>
      ) : null}
    </div>
  );
}
