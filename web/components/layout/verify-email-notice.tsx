import { useQueryClient } from "@tanstack/react-query";
import { useAccount, useResendVerification } from "../../api/account-security";
import { ApiError } from "../../api/client";
import * as queryKeys from "../../api/keys";
import { toast } from "../../lib/toast";

/**
 * A slim notice above the signed-in screens until the customer confirms their e-mail address (issue 12). Loaded after
 * the shell (lazy), so it adds nothing to the dashboard's first load; a confirmed address is never asked about again.
 */
export function VerifyEmailNotice() {
  const account = useAccount();
  const resend = useResendVerification();
  const queryClient = useQueryClient();
  // Issue 43: confirmed meanwhile (the link opened in another browser): the server says so; that is good news, and the
  // notice goes once the account is read again.
  const onResendError = (err: Error) => {
    if (err instanceof ApiError && err.code === "INVALID_STATE") {
      toast.success("Your e-mail address is already confirmed.");
      void queryClient.invalidateQueries({ queryKey: queryKeys.account });
    } else toast.error(err.message);
  };
  if (!account.data || account.data.email_verified) return null;
  return (
    <div role="status" data-testid="verify-email-notice" className="mb-4 flex flex-wrap items-center gap-x-3 gap-y-1 rounded-lg border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:border-amber-900 dark:bg-amber-950/40 dark:text-amber-200">
      <span>Please confirm your e-mail address: open the link we sent to {account.data.user.userEmail}.</span>
      <button
        type="button"
        className="font-medium underline underline-offset-2 disabled:opacity-50 cursor-pointer"
        disabled={resend.isPending}
        onClick={() => resend.mutate(undefined, { onSuccess: (res) => toast.success(res.message), onError: onResendError })}
      >
        {resend.isPending ? "Sending..." : "Send it again"}
      </button>
    </div>
  );
}
