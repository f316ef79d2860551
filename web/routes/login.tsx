import { useState, type FormEvent } from "react";
import { toast } from "../lib/toast";
import { TWO_FACTOR_MESSAGES, loginSchema, type LoginChallenge, type LoginInput } from "../../schema/accounts";
import { isChallenge, useLogin, useLoginTwoFactor } from "../api/accounts";
import { isCeremonyCancelled, passkeyErrorText, passkeysSupported, useSignInWithPasskey } from "../api/passkeys";
import { KeyRound } from "lucide-react";
import { AppLink, useGo } from "../components/layout/app-link";
import { AuthLayout, textLinkClasses } from "../components/auth/auth-layout";
import { Alert } from "../components/ui/alert";
import { ApiError, SIGNED_OUT_REASON_KEY } from "../api/client";
import { Button } from "../components/ui/button";
import { Field } from "../components/ui/field";
import { Input, PasswordInput } from "../components/ui/input";
import { validateForm, type FieldErrors } from "../lib/form";
import { useTimedMessage } from "../lib/use-timed-message";
import { useDocumentTitle } from "../components/layout/logo";

/** Spec section 4: the login error banner clears after 8 s. */
const ERROR_BANNER_MS = 8000;

export default function LoginPage() {
  useDocumentTitle("Login");
  const go = useGo();
  const loginUser = useLogin();
  const [values, setValues] = useState<LoginInput>({ email: "", password: "" });
  const [errors, setErrors] = useState<FieldErrors<LoginInput>>({});
  const [banner, showBanner] = useTimedMessage(ERROR_BANNER_MS);
  // A second factor enrolled: the password step answered a challenge, and this page asks for the code or passkey next.
  const [challenge, setChallenge] = useState<LoginChallenge | null>(null);
  // Issue 28: a tab sent here by a refused session says why (blocked, signed out elsewhere, expired), once.
  const [signedOutReason] = useState(() => {
    try {
      const reason = sessionStorage.getItem(SIGNED_OUT_REASON_KEY);
      sessionStorage.removeItem(SIGNED_OUT_REASON_KEY);
      return reason;
    } catch {
      return null;
    }
  });

  const set = (key: keyof LoginInput) => (e: React.ChangeEvent<HTMLInputElement>) => {
    setValues((v) => ({ ...v, [key]: e.target.value }));
    setErrors((errs) => ({ ...errs, [key]: undefined }));
  };

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const result = validateForm(loginSchema, values);
    if (!result.ok) {
      setErrors(result.errors);
      return;
    }
    loginUser.mutate(result.data, {
      onSuccess: (res) => {
        if (isChallenge(res)) setChallenge(res);
        else void go("/dashboard/1");
      },
      onError: (err) => {
        // The spec's client reads the `error` field on login; the server sends the same text in both.
        const text = String((err instanceof ApiError && err.body.error) || err.message);
        toast.error(text);
        showBanner(text);
      },
    });
  };

  const busy = loginUser.isPending;
  if (challenge) {
    return (
      <TwoFactorStep
        challenge={challenge.challenge}
        methods={challenge.methods}
        onExpired={(text) => {
          setChallenge(null);
          setValues((v) => ({ ...v, password: "" }));
          showBanner(text);
        }}
        onDone={() => void go("/dashboard/1")}
      />
    );
  }
  return (
    <AuthLayout
      title="Welcome back"
      subtitle="Log in to your wallet and numbers."
      footer={
        <>
          New here?{" "}
          <AppLink to="/signup/1" className={textLinkClasses}>
            Create an account
          </AppLink>
        </>
      }
    >
      <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4" aria-busy={busy}>
        {banner ? <Alert variant="error">{banner}</Alert> : null}
        {signedOutReason && !banner ? (
          <Alert variant="warning" data-testid="signed-out-reason">
            {signedOutReason}
          </Alert>
        ) : null}
        <Field label="Email" error={errors.email}>
          {(p) => <Input {...p} name="email" type="email" autoComplete="email" inputMode="email" value={values.email} onChange={set("email")} />}
        </Field>
        <Field label="Password" error={errors.password}>
          {(p) => <PasswordInput {...p} name="password" autoComplete="current-password" value={values.password} onChange={set("password")} />}
        </Field>
        <div className="-mt-1 flex justify-end">
          <AppLink to="/forgot-password/1" className={`text-sm ${textLinkClasses}`}>
            Forgot password?
          </AppLink>
        </div>
        <Button type="submit" size="lg" disabled={busy} className="w-full">
          {busy ? "Logging in..." : "Login"}
        </Button>
      </form>
      <PasskeySignIn onDone={() => void go("/dashboard/1")} onError={(text) => showBanner(text)} />
    </AuthLayout>
  );
}

/**
 * "Sign in with a passkey" (issue 33): the browser offers the passkeys it holds for this site (discoverable
 * credentials), so no e-mail is typed; a passkey with the device's lock is two factors, so no code is asked either.
 * The WebAuthn library loads when the button is pressed, not with the page.
 */
function PasskeySignIn({ onDone, onError }: { onDone: () => void; onError: (message: string) => void }) {
  const signIn = useSignInWithPasskey();
  if (!passkeysSupported()) return null;
  return (
    <div className="mt-4 flex flex-col gap-3">
      <p className="text-center text-sm text-muted-foreground">or</p>
      <Button
        variant="outline"
        size="lg"
        className="w-full"
        disabled={signIn.isPending}
        onClick={() =>
          signIn.mutate(undefined, {
            onSuccess: onDone,
            onError: (err) => {
              if (!isCeremonyCancelled(err)) onError(passkeyErrorText(err));
            },
          })
        }
      >
        <KeyRound aria-hidden className="size-4" />
        {signIn.isPending ? "Waiting for your passkey..." : "Sign in with a passkey"}
      </Button>
    </div>
  );
}

/**
 * The second login step, with what the account has (the login answer's `methods`): a 6-digit code from the
 * authenticator app or a recovery code when two-factor sign-in is on, and "Use your passkey" when it has a passkey. The
 * passkey button runs the login page's own passkey ceremony, which opens a two-factor session by itself (issue 33).
 */
function TwoFactorStep({
  challenge,
  methods,
  onExpired,
  onDone,
}: {
  challenge: string;
  methods: LoginChallenge["methods"];
  onExpired: (message: string) => void;
  onDone: () => void;
}) {
  const verify = useLoginTwoFactor();
  const passkey = useSignInWithPasskey();
  const [code, setCode] = useState("");
  const [error, setError] = useState<string | null>(null);
  const withCode = methods.includes("totp");
  const withPasskey = methods.includes("passkey") && passkeysSupported();

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (code.trim().length < 6) {
      setError("Enter the 6-digit code from your authenticator app.");
      return;
    }
    verify.mutate(
      { challenge, code: code.trim() },
      {
        onSuccess: onDone,
        onError: (err) => {
          // An expired challenge (401 UNAUTHORIZED) starts over at the password; a wrong code or a 429 stays here.
          if ("code" in err && err.code === "UNAUTHORIZED") onExpired(err.message);
          else setError(err.message);
        },
      },
    );
  };

  const confirmWithPasskey = () =>
    passkey.mutate(undefined, {
      onSuccess: onDone,
      onError: (err) => {
        if (!isCeremonyCancelled(err)) setError(passkeyErrorText(err));
      },
    });

  return (
    <AuthLayout title="Two-factor sign-in" subtitle={withCode ? "Enter the code from your authenticator app." : TWO_FACTOR_MESSAGES.passkeyNeeded}>
      <div className="flex flex-col gap-4">
        {error ? <Alert variant="error">{error}</Alert> : null}
        {!withCode && !withPasskey ? <Alert variant="error">This browser cannot use passkeys. Sign in on the device that holds your passkey.</Alert> : null}
        {withCode ? (
          <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4" aria-busy={verify.isPending}>
            <Field label="Authentication code" hint="Lost your phone? Enter one of your recovery codes instead.">
              {(p) => (
                <Input
                  {...p}
                  name="code"
                  autoComplete="one-time-code"
                  autoFocus
                  value={code}
                  onChange={(e) => {
                    setCode(e.target.value);
                    setError(null);
                  }}
                />
              )}
            </Field>
            <Button type="submit" size="lg" disabled={verify.isPending} className="w-full">
              {verify.isPending ? "Verifying..." : "Verify"}
            </Button>
          </form>
        ) : null}
        {withCode && withPasskey ? <p className="text-center text-sm text-muted-foreground">or</p> : null}
        {withPasskey ? (
          <Button variant={withCode ? "outline" : "default"} size="lg" className="w-full" disabled={passkey.isPending} onClick={confirmWithPasskey}>
            <KeyRound aria-hidden className="size-4" />
            {passkey.isPending ? "Waiting for your passkey..." : "Use your passkey"}
          </Button>
        ) : null}
      </div>
    </AuthLayout>
  );
}
