import { useEffect, useState, type FormEvent } from "react";
import { ACCOUNT_MESSAGES, RESET_LINK_INVALID_MESSAGE } from "../../schema/account-messages";
import { useResetPassword } from "../api/accounts";
import { AppLink, useGo, useAppSearch } from "../components/layout/app-link";
import { AuthLayout, textLinkClasses } from "../components/auth/auth-layout";
import { Alert } from "../components/ui/alert";
import { Button } from "../components/ui/button";
import { Field } from "../components/ui/field";
import { PasswordInput } from "../components/ui/input";
import { useDocumentTitle } from "../components/layout/logo";

/** Spec section 9: after a successful reset the user goes to login/1 after 3 s. */
const REDIRECT_MS = 3000;

export default function ResetPasswordPage() {
  useDocumentTitle("Reset password");
  const { token, id } = useAppSearch<{ token: string; id: string }>();
  const go = useGo();
  const reset = useResetPassword();
  const [newPassword, setNewPassword] = useState("");
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);
  const linkUsable = Boolean(token && id);

  useEffect(() => {
    if (!result?.ok) return;
    const timer = setTimeout(() => void go("/login/1"), REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [result, go]);

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (!token || !id) return;
    // NOTE: the spec's reset form checks no length on the client; the server's message is shown instead.
    setResult(null);
    reset.mutate(
      { id, token, newPassword },
      {
        onSuccess: (res) => setResult({ ok: true, text: res?.message || ACCOUNT_MESSAGES.resetDone }),
        onError: (err) => setResult({ ok: false, text: err.message || "Reset failed." }),
      },
    );
  };

  const busy = reset.isPending;
  const done = result?.ok === true;
  return (
    <AuthLayout
      title="Set a new password"
      subtitle="Choose a password you have not used here before."
      footer={
        <AppLink to="/login/1" className={textLinkClasses}>
          Back to login
        </AppLink>
      }
    >
      {!linkUsable ? (
        <div className="flex flex-col gap-4">
          <Alert variant="error">{RESET_LINK_INVALID_MESSAGE}</Alert>
          <AppLink to="/forgot-password/1" className={textLinkClasses}>
            Request a new reset link
          </AppLink>
        </div>
      ) : (
        <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4" aria-busy={busy}>
          {result ? <Alert variant={result.ok ? "success" : "error"}>{result.text}</Alert> : null}
          <Field label="New Password">
            {(p) => (
              <PasswordInput
                {...p}
                name="newPassword"
                autoComplete="new-password"
                value={newPassword}
                disabled={done}
                onChange={(e) => setNewPassword(e.target.value)}
              />
            )}
          </Field>
          <Button type="submit" size="lg" disabled={busy || done} className="w-full">
            {busy ? "Resetting..." : "Reset"}
          </Button>
        </form>
      )}
    </AuthLayout>
  );
}
