import { useQuery } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { twoFactorQueryOptions, useDisableTwoFactor, useEnableTwoFactor, useStartTwoFactor } from "../../api/account-security";
import { copyText } from "../../lib/clipboard";
import { Alert } from "../ui/alert";
import { Badge } from "../ui/badge";
import { Button, buttonClasses } from "../ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../ui/card";
import { Field } from "../ui/field";
import { Input, PasswordInput } from "../ui/input";
import { Skeleton } from "../ui/skeleton";
import { QrCode } from "./qr-code";
import { StepUpCancelled, useConfirmSecurityChange, useStepUp } from "./step-up";
import { LoadError } from "../ui/load-error";
import { ApiError } from "../../api/client";

/** Settings: two-factor sign-in with an authenticator app (docs/api.md "Account security"). */
export function TwoFactorSection() {
  const state = useQuery(twoFactorQueryOptions());
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);

  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          Two-factor sign-in {state.data ? <Badge variant={state.data.enabled ? "success" : "secondary"}>{state.data.enabled ? "On" : "Off"}</Badge> : null}
        </CardTitle>
        <CardDescription>
          With it on, logging in also asks for a 6-digit code from an authenticator app on your phone (Google Authenticator, Authy, 1Password...),
          so a stolen password alone cannot open your wallet.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {recoveryCodes ? (
          <RecoveryCodes codes={recoveryCodes} onDone={() => setRecoveryCodes(null)} />
        ) : state.isPending ? (
          <Skeleton className="h-10 w-40" />
        ) : state.isError ? (
          <LoadError what="your two-step sign-in settings" error={state.error} onRetry={() => void state.refetch()} />
        ) : state.data.enabled ? (
          <DisableForm codesLeft={state.data.recovery_codes_left} />
        ) : (
          <Enrolment onEnabled={setRecoveryCodes} />
        )}
      </CardContent>
    </Card>
  );
}

function Enrolment({ onEnabled }: { onEnabled: (codes: string[]) => void }) {
  const start = useStartTwoFactor();
  const enable = useEnableTwoFactor();
  // Changing how the account signs in asks for the password or a fresh second factor first (issue 33).
  const { guard, dialog } = useStepUp();
  const confirmChange = useConfirmSecurityChange();
  const [code, setCode] = useState("");
  const [error, setError] = useState<string | null>(null);
  // What stopped the set-up, from the guarded call as a whole: "Confirm it's you" is a step of it, not a failure
  // (issue 43: the refusal that opens that dialog showed as a red error behind it), and closing the dialog is no error.
  const [startError, setStartError] = useState<string | null>(null);
  const begin = () => {
    setStartError(null);
    guard(() => start.mutateAsync()).catch((err) => {
      if (!(err instanceof StepUpCancelled)) setStartError(err instanceof Error ? err.message : String(err));
    });
  };

  if (!start.data) {
    return (
      <div className="flex flex-col gap-3">
        {startError ? (
          <Alert variant="error">
            Could not start the set-up: {startError.replace(/[.!]\s*$/, "")}. Nothing was changed: try again.
          </Alert>
        ) : null}
        <div>
          <Button onClick={begin} disabled={start.isPending}>
            {start.isPending ? "Preparing..." : startError ? "Try again" : "Set up two-factor sign-in"}
          </Button>
        </div>
        {dialog}
      </div>
    );
  }

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (!/^\d{6}$/.test(code.trim())) {
      setError("Enter the 6-digit code your app shows.");
      return;
    }
    enable.mutate(code.trim(), {
      onSuccess: (res) => {
        confirmChange("Two-factor sign-in is on.");
        onEnabled(res.recovery_codes);
      },
      onError: (err) => setError(err.message),
    });
  };

  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4" aria-busy={enable.isPending}>
      <ol className="list-decimal space-y-1 pl-5 text-sm text-slate-600 dark:text-slate-300">
        <li>Scan this QR code with your authenticator app.</li>
        <li>Enter the 6-digit code it shows to finish.</li>
      </ol>
      <QrCode value={start.data.otpauth_url} label="QR code for your authenticator app" className="h-48 w-48 rounded-lg border border-slate-200 dark:border-slate-700" />
      <p className="text-sm text-slate-600 dark:text-slate-300">
        Cannot scan? Type this key into the app:{" "}
        <code data-testid="totp-secret" className="break-all rounded bg-slate-100 px-1.5 py-0.5 font-mono text-slate-900 dark:bg-slate-800 dark:text-slate-100">
          {start.data.secret}
        </code>
      </p>
      {/* Issue 28: on a phone the QR code cannot be scanned by the phone showing it: open the app by link, or copy the key. */}
      <div className="flex flex-wrap gap-2">
        <a href={start.data.otpauth_url} className={buttonClasses("outline", "sm")} data-testid="totp-open-app">
          Open in your authenticator app
        </a>
        <Button type="button" variant="outline" size="sm" onClick={() => void copyText(start.data.secret, "Key copied to clipboard!")}>
          Copy the key
        </Button>
      </div>
      <Field label="Code from your app" error={error ?? undefined}>
        {(p) => (
          <Input
            {...p}
            name="code"
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            value={code}
            onChange={(e) => {
              setCode(e.target.value);
              setError(null);
            }}
          />
        )}
      </Field>
      <div>
        <Button type="submit" disabled={enable.isPending}>
          {enable.isPending ? "Checking..." : "Turn on"}
        </Button>
      </div>
    </form>
  );
}

function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  return (
    <div className="flex flex-col gap-4">
      <Alert variant="warning">
        Save these recovery codes somewhere safe (a password manager, or on paper). Each one signs you in once if you lose your phone. They are shown
        only now.
      </Alert>
      <ul aria-label="Recovery codes" className="grid grid-cols-2 gap-2 font-mono text-sm">
        {codes.map((c) => (
          <li key={c} className="rounded bg-slate-100 px-2 py-1 text-center dark:bg-slate-800" data-testid="recovery-code">
            {c}
          </li>
        ))}
      </ul>
      <div className="flex gap-2">
        <Button variant="outline" onClick={() => void copyText(codes.join("\n"), "Recovery codes copied.")}>
          Copy codes
        </Button>
        <Button onClick={onDone}>I have saved them</Button>
      </div>
    </div>
  );
}

function DisableForm({ codesLeft }: { codesLeft: number }) {
  const disable = useDisableTwoFactor();
  const confirmChange = useConfirmSecurityChange();
  const [password, setPassword] = useState("");
  const [code, setCode] = useState("");
  const [error, setError] = useState<{ field?: string; text: string } | null>(null);

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    disable.mutate(
      { password, code: code.trim() },
      {
        onSuccess: (res) => confirmChange(res.message),
        onError: (err) => setError({ field: err instanceof ApiError ? String(err.body.field ?? "") : undefined, text: err.message }),
      },
    );
  };

  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4" aria-busy={disable.isPending}>
      <p className="text-sm text-slate-600 dark:text-slate-300">
        {codesLeft} unused recovery code{codesLeft === 1 ? "" : "s"} left. To turn two-factor sign-in off, enter your password and a current code.
      </p>
      {error && error.field !== "password" && error.field !== "code" ? <Alert variant="error">{error.text}</Alert> : null}
      <Field label="Password" error={error?.field === "password" ? error.text : undefined}>
        {(p) => <PasswordInput {...p} name="password" autoComplete="current-password" value={password} onChange={(e) => (setPassword(e.target.value), setError(null))} />}
      </Field>
      <Field label="Code from your app (or a recovery code)" error={error?.field === "code" ? error.text : undefined}>
        {(p) => <Input {...p} name="code" autoComplete="one-time-code" value={code} onChange={(e) => (setCode(e.target.value), setError(null))} />}
      </Field>
      <div>
        <Button type="submit" variant="destructive" disabled={disable.isPending}>
          {disable.isPending ? "Turning off..." : "Turn off two-factor sign-in"}
        </Button>
      </div>
    </form>
  );
}
