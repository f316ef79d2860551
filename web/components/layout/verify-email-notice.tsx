import { useAccount, useResendVerification } from "../../api/account-security";
import { toast } from "../../lib/toast";

/**
 * A slim notice above the signed-in screens until the customer confirms their e-mail address (issue 12). Loaded after
 * the shell (lazy), so it adds nothing to the dashboard's first load; a confirmed address is never asked about again.
 */
export function VerifyEmailNotice() {
  const account = useAccount();
  const resend = useResendVerification();
  if (!account.data || account.data.email_verified) return null;
  return (
    <div role="status" data-testid="verify-email-notice" className="mb-4 flex flex-wrap items-center gap-x-3 gap-y-1 rounded-lg border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:border-amber-900 dark:bg-amber-950/40 dark:text-amber-200">
      <span>Please confirm your e-mail address: open the link we sent to {account.data.user.userEmail}.</span>
      <button
        type="button"
        className="font-medium underline underline-offset-2 disabled:opacity-50 cursor-pointer"
        disabled={resend.isPending}
        onClick={() => resend.mutate(undefined, { onSuccess: (res) => toast.success(res.message), onError: (err) => toast.error(err.message) })}
      >
        {resend.isPending ? "Sending..." : "Send it again"}
      </button>
    </div>
  );
}
