import { Spinner } from "../ui/spinner";

/** The spec's full-screen loader ('Loading your dashboard...' / 'Verifying payment...'), announced politely. */
export function FullScreenLoader({ text }: { text: string }) {
  return (
    <div
      role="status"
      aria-live="polite"
      className="fixed inset-0 z-40 flex flex-col items-center justify-center gap-4 bg-white/90 text-slate-700 backdrop-blur-sm dark:bg-slate-950/90 dark:text-slate-200"
    >
      <Spinner className="h-10 w-10 text-blue-600 dark:text-blue-400" />
      <p className="text-base font-medium">{text}</p>
    </div>
  );
}
