import { Alert } from "./alert";
import { Button } from "./button";

/**
 * The one shape of a failed load (issue 18: every error says what happened and what to try): what could not be
 * loaded, the server's reason, and a Try again button that refetches. Used wherever a query's error used to show its
 * bare message.
 */
export function LoadError({ what, error, onRetry, className }: { what: string; error: Error; onRetry: () => void; className?: string }) {
  return (
    <Alert variant="error" className={className}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p>
          Could not load {what}: {error.message.replace(/[.!]\s*$/, "")}. Check your connection, then try again.
        </p>
        <Button variant="outline" size="sm" onClick={onRetry}>
          Try again
        </Button>
      </div>
    </Alert>
  );
}
