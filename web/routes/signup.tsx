import { useState, type FormEvent } from "react";
import { toast } from "../lib/toast";
import { registerSchema, type RegisterInput } from "../../schema/accounts";
import { ACCOUNT_MESSAGES } from "../../schema/account-messages";
import { useRegister } from "../api/accounts";
import { AppLink, useGo, useAppSearch } from "../components/layout/app-link";
import { AuthLayout, textLinkClasses } from "../components/auth/auth-layout";
import { ReferralInvitationNotice } from "../components/auth/referral-invitation";
import { Alert } from "../components/ui/alert";
import { Button } from "../components/ui/button";
import { Field } from "../components/ui/field";
import { Input, PasswordInput } from "../components/ui/input";
import { validateForm, type FieldErrors } from "../lib/form";
import { useTimedMessage } from "../lib/use-timed-message";
import { useDocumentTitle } from "../components/layout/logo";

/** Spec section 4: the signup error banner clears after 4 s. */
const ERROR_BANNER_MS = 4000;

export default function SignupPage() {
  useDocumentTitle("Sign up");
  const { ref } = useAppSearch<{ ref: string }>();
  const go = useGo();
  const registerUser = useRegister();
  const [values, setValues] = useState<RegisterInput>({ username: "", number: "", email: "", password: "", referralCode: ref ?? "" });
  const [errors, setErrors] = useState<FieldErrors<RegisterInput>>({});
  const [banner, showBanner] = useTimedMessage(ERROR_BANNER_MS);

  const set = (key: keyof RegisterInput) => (e: React.ChangeEvent<HTMLInputElement>) => {
    setValues((v) => ({ ...v, [key]: e.target.value }));
    setErrors((errs) => ({ ...errs, [key]: undefined }));
  };

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const result = validateForm(registerSchema, values);
    if (!result.ok) {
      setErrors(result.errors);
      return;
    }
    const referralCode = result.data.referralCode || undefined;
    registerUser.mutate(
      { ...result.data, referralCode },
      {
        onSuccess: () => {
          toast.success(ACCOUNT_MESSAGES.welcome);
          void go("/dashboard/1");
        },
        onError: (err) => {
          toast.error(err.message);
          showBanner(err.message);
        },
      },
    );
  };

  const busy = registerUser.isPending;
  return (
    <AuthLayout
      title="Create your account"
      subtitle="Virtual numbers for verification codes, paid from your naira wallet."
      footer={
        <>
          Already have an account?{" "}
          <AppLink to="/login/1" className={textLinkClasses}>
            Login
          </AppLink>
        </>
      }
    >
      <ReferralInvitationNotice code={ref} />
      <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4" aria-busy={busy}>
        {banner ? <Alert variant="error">{banner}</Alert> : null}
        <Field label="Username" error={errors.username}>
          {(p) => <Input {...p} name="username" autoComplete="username" value={values.username} onChange={set("username")} />}
        </Field>
        <Field label="Email Address" error={errors.email}>
          {(p) => <Input {...p} name="email" type="email" autoComplete="email" inputMode="email" value={values.email} onChange={set("email")} />}
        </Field>
        <Field label="Phone Number" error={errors.number}>
          {(p) => (
            <Input {...p} name="number" type="tel" autoComplete="tel" inputMode="tel" placeholder="+2348012345678" value={values.number} onChange={set("number")} />
          )}
        </Field>
        <Field label="Password" error={errors.password}>
          {(p) => <PasswordInput {...p} name="password" autoComplete="new-password" value={values.password} onChange={set("password")} />}
        </Field>
        <Field label="Referral Code (optional)" error={errors.referralCode}>
          {(p) => <Input {...p} name="referralCode" autoComplete="off" value={values.referralCode ?? ""} onChange={set("referralCode")} />}
        </Field>
        <Button type="submit" size="lg" disabled={busy} className="mt-2 w-full">
          {busy ? "Signing up..." : "Sign up"}
        </Button>
        <p className="text-center text-xs text-slate-600 dark:text-slate-400">
          By signing up you agree to our{" "}
          <AppLink to="/terms/1" className={textLinkClasses}>
            Terms
          </AppLink>{" "}
          and{" "}
          <AppLink to="/privacy/1" className={textLinkClasses}>
            Privacy Policy
          </AppLink>
          .
        </p>
      </form>
    </AuthLayout>
  );
}
