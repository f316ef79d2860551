import { useState, type InputHTMLAttributes, type Ref } from "react";
import { Eye, EyeOff } from "lucide-react";
import { cn } from "../../lib/cn";

export const inputClasses =
  "h-10 w-full rounded-lg border border-slate-300 bg-white px-3 text-sm text-slate-900 shadow-sm " +
  "placeholder:text-slate-500 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-blue-600 " +
  "disabled:cursor-not-allowed disabled:opacity-60 [&:is(input,textarea):read-only]:bg-slate-50 " +
  "aria-[invalid=true]:border-red-500 " +
  "dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100 dark:placeholder:text-slate-400 dark:[&:is(input,textarea):read-only]:bg-slate-800/60";

type InputProps = InputHTMLAttributes<HTMLInputElement> & { ref?: Ref<HTMLInputElement> };

export function Input({ className, ...props }: InputProps) {
  return <input className={cn(inputClasses, className)} {...props} />;
}

/** A password input with a show/hide toggle (the spec's signup, login and reset forms). */
/**
 * A masked field with a show/hide eye: passwords, and other secrets typed on a shared screen (issue 43: the BVN showed
 * in plain digits while typed). `secretName` names it in the eye's label ("Show BVN").
 */
export function PasswordInput({ className, secretName = "password", ...props }: Omit<InputProps, "type"> & { secretName?: string }) {
  const [visible, setVisible] = useState(false);
  return (
    <div className="relative">
      <Input {...props} type={visible ? "text" : "password"} className={cn("pr-11", className)} />
      <button
        type="button"
        onClick={() => setVisible((v) => !v)}
        aria-label={`${visible ? "Hide" : "Show"} ${secretName}`}
        aria-pressed={visible}
        className="absolute inset-y-0 right-0 flex w-10 items-center justify-center rounded-r-lg text-slate-600 hover:text-slate-800 focus-visible:outline-2 focus-visible:outline-blue-600 dark:text-slate-400 dark:hover:text-slate-100 cursor-pointer"
      >
        {visible ? <EyeOff className="h-4 w-4" aria-hidden /> : <Eye className="h-4 w-4" aria-hidden />}
      </button>
    </div>
  );
}
