import { useState, type FormEvent } from "react";
import { forgotPasswordSchema } from "../../schema/accounts";
import { ACCOUNT_MESSAGES } from "../../schema/account-messages";
import { useForgotPassword } from "../api/accounts";
import { AppLink } from "../components/layout/app-link";
import { AuthLayout, textLinkClasses } from "../components/auth/auth-layout";
import { Alert } from "../components/ui/alert";
import { Button } from "../components/ui/button";
import { Field } from "../components/ui/field";
import { Input } from "../components/ui/input";
import { validateForm } from "../lib/form";
import { useDocumentTitle } from "../components/layout/logo";

export default function ForgotPasswordPage() {
  useDocumentTitle("Forgot password");
  const forgot = useForgotPassword();
  const [email, setEmail] = useState("");
  const [fieldError, setFieldError] = useState<string | undefined>();
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const parsed = validateForm(forgotPasswordSchema, { email });
    if (!parsed.ok) {
      setFieldError(parsed.errors.email);
      return;
    }
    setResult(null);
    forgot.mutate(parsed.data, {
      onSuccess: (res) => setResult({ ok: true, text: res?.message || ACCOUNT_MESSAGES.forgotSent }),
      onError: (err) => setResult({ ok: false, text: err.message || "Something went wrong" }),
    });
  };

  const busy = forgot.isPending;
  return (
    <AuthLayout
      title="Forgot your password?"
      subtitle="Enter your account's email and we will send you a link to set a new password."
      footer={
        <AppLink to="/login/1" className={textLinkClasses}>
          Back to login
        </AppLink>
      }
    >
      <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4" aria-busy={busy}>
        {result ? <Alert variant={result.ok ? "success" : "error"}>{result.text}</Alert> : null}
        <Field label="Email" error={fieldError}>
          {(p) => (
            <Input
              {...p}
              name="email"
              type="email"
              autoComplete="email"
              inputMode="email"
              value={email}
              onChange={(e) => {
                setEmail(e.target.value);
                setFieldError(undefined);
              }}
            />
          )}
        </Field>
        <Button type="submit" size="lg" disabled={busy} className="w-full">
          {busy ? "Sending..." : "Send Reset Link"}
        </Button>
      </form>
    </AuthLayout>
  );
}
