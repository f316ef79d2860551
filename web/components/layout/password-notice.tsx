import { PASSWORD_CHANGE_REQUIRED_MESSAGE } from "../../../schema/account-messages";
import { useAccount } from "../../api/account-security";

/**
 * Issue 33: a slim notice above the signed-in screens while the account's password fails today's rules (it was set
 * before they changed: under 8 characters, or a common one). The password still works; the notice asks for a new one
 * and goes once Settings' "Change Password" succeeds (that refetches the account). Lazy, like the e-mail notice.
 */
export function PasswordNotice() {
  const account = useAccount();
  if (!account.data?.password_change_required) return null;
  return (
    <div role="status" data-testid="password-notice" className="mb-4 flex flex-wrap items-center gap-x-3 gap-y-1 rounded-lg border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:border-amber-900 dark:bg-amber-950/40 dark:text-amber-200">
      <span>{PASSWORD_CHANGE_REQUIRED_MESSAGE}</span>
      <a href="#/settings/1" className="font-medium underline underline-offset-2">
        Change password
      </a>
    </div>
  );
}
