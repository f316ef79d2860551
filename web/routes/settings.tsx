import { lazy, Suspense, useState, type FormEvent } from "react";
import { toast } from "../lib/toast";
import { passwordChangeSchema, profileUpdateSchema, type PasswordChangeInput, type ProfileUpdateInput } from "../../schema/accounts";
import { ACCOUNT_MESSAGES } from "../../schema/account-messages";
import { useChangePassword, useUpdateProfile } from "../api/accounts";
import { Alert } from "../components/ui/alert";
import { Button } from "../components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../components/ui/card";
import { Field } from "../components/ui/field";
import { Input, PasswordInput } from "../components/ui/input";
import { validateForm, type FieldErrors } from "../lib/form";
import { useSessionUser } from "../lib/use-session";
import { useDocumentTitle } from "../components/layout/logo";
import { CodeAlertsSection } from "../components/settings/code-alerts-section";
import { DevicesSection } from "../components/settings/devices-section";
import { EmailSection } from "../components/settings/email-section";
import { PasskeysSection } from "../components/settings/passkeys-section";
import { useConfirmSecurityChange } from "../components/settings/step-up";
import { TwoFactorSection } from "../components/settings/two-factor-section";
import { PermanentAccountSection } from "../components/settings/permanent-account-section";
import { TelegramSection } from "../components/settings/telegram-section";
import { Skeleton } from "../components/ui/skeleton";

// Developer keys and webhooks: a lazy chunk, fetched only when Settings renders (most customers never use the API).
const ApiSection = lazy(() => import("../components/settings/api-section"));
// Issue 47: push on this device, its choices and rental forwarding, with the push client (web/lib/push-device.ts).
const NotificationsSection = lazy(() => import("../components/settings/notifications-section"));
// Cash out (issue 45): its own lazy chunk too.
const WithdrawSection = lazy(() => import("../components/settings/withdraw-section"));

function ProfileSection() {
  const user = useSessionUser();
  const update = useUpdateProfile();
  const [values, setValues] = useState<ProfileUpdateInput>({ username: user?.username ?? "", userNumber: user?.userNumber ?? "" });
  const [errors, setErrors] = useState<FieldErrors<ProfileUpdateInput>>({});
  const [failure, setFailure] = useState<string | null>(null);

  const set = (key: keyof ProfileUpdateInput) => (e: React.ChangeEvent<HTMLInputElement>) => {
    setValues((v) => ({ ...v, [key]: e.target.value }));
    setErrors((errs) => ({ ...errs, [key]: undefined }));
    setFailure(null);
  };

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const result = validateForm(profileUpdateSchema, values);
    if (!result.ok) {
      setErrors(result.errors);
      return;
    }
    update.mutate(result.data, {
      onSuccess: (res) => toast.success(typeof res === "string" && res ? res : ACCOUNT_MESSAGES.profileUpdated),
      onError: (err) => {
        const text = err.message || "Error updating profile.";
        setFailure(text);
        toast.error(text);
      },
    });
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>Settings</CardTitle>
        <CardDescription>Your name and phone number. Your email is your login and cannot be changed.</CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4" aria-busy={update.isPending}>
          {failure ? <Alert variant="error">{failure}</Alert> : null}
          <Field label="Username" error={errors.username}>
            {(p) => <Input {...p} name="username" autoComplete="username" value={values.username} onChange={set("username")} />}
          </Field>
          <Field label="Phone Number" error={errors.userNumber}>
            {(p) => <Input {...p} name="userNumber" type="tel" autoComplete="tel" inputMode="tel" value={values.userNumber} onChange={set("userNumber")} />}
          </Field>
          <Field label="Email">{(p) => <Input {...p} name="email" type="email" readOnly value={user?.userEmail ?? ""} />}</Field>
          <div>
            <Button type="submit" disabled={update.isPending}>
              {update.isPending ? "Updating..." : "Update Profile"}
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}

const EMPTY_PASSWORDS: PasswordChangeInput = { oldPassword: "", newPassword: "" };

function PasswordSection() {
  const change = useChangePassword();
  const confirmChange = useConfirmSecurityChange();
  const [values, setValues] = useState<PasswordChangeInput>(EMPTY_PASSWORDS);
  const [errors, setErrors] = useState<FieldErrors<PasswordChangeInput>>({});
  const [failure, setFailure] = useState<string | null>(null);

  const set = (key: keyof PasswordChangeInput) => (e: React.ChangeEvent<HTMLInputElement>) => {
    setValues((v) => ({ ...v, [key]: e.target.value }));
    setErrors((errs) => ({ ...errs, [key]: undefined }));
    setFailure(null);
  };

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const result = validateForm(passwordChangeSchema, values);
    if (!result.ok) {
      setErrors(result.errors);
      return;
    }
    change.mutate(result.data, {
      onSuccess: (res) => {
        // Other devices were signed out already; the confirmation offers this one too (ASVS 7.4.3).
        confirmChange(typeof res?.data === "string" && res.data ? res.data : ACCOUNT_MESSAGES.passwordUpdated);
        setValues(EMPTY_PASSWORDS);
      },
      onError: (err) => {
        const text = err.message || "Password update failed!";
        setFailure(text);
        toast.error(text);
      },
    });
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>Change Password</CardTitle>
        <CardDescription>Other devices signed in to your account are logged out when you change it.</CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4" aria-busy={change.isPending}>
          {failure ? <Alert variant="error">{failure}</Alert> : null}
          <Field label="Old Password" error={errors.oldPassword}>
            {(p) => <PasswordInput {...p} name="oldPassword" autoComplete="current-password" value={values.oldPassword} onChange={set("oldPassword")} />}
          </Field>
          <Field label="New Password" error={errors.newPassword}>
            {(p) => <PasswordInput {...p} name="newPassword" autoComplete="new-password" value={values.newPassword} onChange={set("newPassword")} />}
          </Field>
          <div>
            <Button type="submit" disabled={change.isPending}>
              {change.isPending ? "Saving..." : "Save"}
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}

export default function SettingsPage() {
  useDocumentTitle("Settings");
  return (
    <div className="mx-auto flex w-full max-w-2xl flex-col gap-6">
      <h1 className="text-2xl font-bold tracking-tight">Account settings</h1>
      <ProfileSection />
      <EmailSection />
      <PasswordSection />
      <PermanentAccountSection />
      <Suspense fallback={<Skeleton className="h-40 w-full" />}>
        <NotificationsSection />
        <WithdrawSection />
      </Suspense>
      <CodeAlertsSection />
      <TelegramSection />
      <TwoFactorSection />
      <PasskeysSection />
      <DevicesSection />
      <Suspense fallback={<Skeleton className="h-40 w-full" />}>
        <ApiSection />
      </Suspense>
      <Card>
        <CardHeader>
          <CardTitle>Reseller</CardTitle>
          <CardDescription>Sell numbers to your own customers with sub-accounts (issue 46).</CardDescription>
        </CardHeader>
        <CardContent>
          <a className="text-blue-700 underline dark:text-blue-400" href="#/partner/1">
            Open the partner dashboard
          </a>
        </CardContent>
      </Card>
    </div>
  );
}
