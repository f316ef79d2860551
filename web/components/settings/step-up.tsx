import { useCallback, useRef, useState, type FormEvent, type ReactNode } from "react";
import type { StepUpState } from "../../../schema/passkeys";

type StepUpMethod = StepUpState["methods"][number];
const STEP_UP_METHODS: readonly unknown[] = ["passkey", "totp", "password"] satisfies StepUpMethod[];
const isStepUpMethod = (m: unknown): m is StepUpMethod => STEP_UP_METHODS.includes(m);
import { useRevokeAllSessions } from "../../api/account-security";
import { useLogout } from "../../api/accounts";
import { ApiError } from "../../api/client";
import { isCeremonyCancelled, passkeyErrorText, stepUpWith, stepUpWithPasskey } from "../../api/passkeys";
import { toast } from "../../lib/toast";
import { useGo } from "../layout/app-link";
import { Alert } from "../ui/alert";
import { Button } from "../ui/button";
import { Dialog } from "../ui/dialog";
import { Field } from "../ui/field";
import { Input, PasswordInput } from "../ui/input";

/** The error a guarded action ends with when the customer closes the step-up dialog: nothing to report. */
export class StepUpCancelled extends Error {
  constructor() {
    super("Cancelled.");
  }
}

type Pending = { methods: StepUpState["methods"]; message: string; resolve: () => void; reject: (err: unknown) => void };

/**
 * Step-up for Settings (issue 33, decision 034): `guard(action)` runs the action; when the server answers 403
 * STEP_UP_REQUIRED, it asks the customer to confirm with what the answer offers (passkey, authenticator code, or
 * password), then runs the action again. Render `dialog` once in the section.
 */
export function useStepUp(): { guard: <T>(action: () => Promise<T>) => Promise<T>; dialog: ReactNode } {
  const [pending, setPending] = useState<Pending | null>(null);
  const pendingRef = useRef<Pending | null>(null);
  pendingRef.current = pending;

  const guard = useCallback(async <T,>(action: () => Promise<T>): Promise<T> => {
    try {
      return await action();
    } catch (err) {
      if (!(err instanceof ApiError) || err.code !== "STEP_UP_REQUIRED") throw err;
      // STEP_UP_REQUIRED's error body names the ways this account can confirm (worker/services/accounts/step-up.ts), in its order.
      const sent = err.body.methods;
      const methods: StepUpMethod[] = Array.isArray(sent) ? sent.filter(isStepUpMethod) : ["password"];
      await new Promise<void>((resolve, reject) => setPending({ methods, message: err.message, resolve, reject }));
      return action();
    }
  }, []);

  const close = (confirmed: boolean) => {
    const current = pendingRef.current;
    setPending(null);
    if (confirmed) current?.resolve();
    else current?.reject(new StepUpCancelled());
  };

  return { guard, dialog: pending ? <StepUpDialog key={pending.message} methods={pending.methods} message={pending.message} onDone={close} /> : null };
}

function StepUpDialog({ methods, message, onDone }: { methods: StepUpState["methods"]; message: string; onDone: (confirmed: boolean) => void }) {
  const [secret, setSecret] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const typed = methods.includes("totp") ? "code" : methods.includes("password") ? "password" : null;

  const confirm = async (how: () => Promise<unknown>) => {
    setBusy(true);
    setError(null);
    try {
      await how();
      onDone(true);
    } catch (err) {
      if (!isCeremonyCancelled(err)) setError(passkeyErrorText(err));
    } finally {
      setBusy(false);
    }
  };

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (!typed || !secret.trim()) return setError(typed === "code" ? "Enter the code from your authenticator app." : "Enter your password.");
    void confirm(() => stepUpWith(typed === "code" ? { code: secret.trim() } : { password: secret }));
  };

  return (
    <Dialog open onOpenChange={(open) => !open && !busy && onDone(false)} title="Confirm it's you" description={message}>
      <div className="flex flex-col gap-4">
        {error ? <Alert variant="error">{error}</Alert> : null}
        {methods.includes("passkey") ? (
          <Button type="button" disabled={busy} onClick={() => void confirm(stepUpWithPasskey)}>
            Use your passkey
          </Button>
        ) : null}
        {typed ? (
          <form onSubmit={onSubmit} noValidate className="flex flex-col gap-3">
            <Field label={typed === "code" ? "Authentication code" : "Password"}>
              {(p) =>
                typed === "code" ? (
                  <Input {...p} name="code" autoComplete="one-time-code" value={secret} onChange={(e) => setSecret(e.target.value)} />
                ) : (
                  <PasswordInput {...p} name="password" autoComplete="current-password" value={secret} onChange={(e) => setSecret(e.target.value)} />
                )
              }
            </Field>
            <Button type="submit" variant={methods.includes("passkey") ? "outline" : "default"} disabled={busy}>
              {busy ? "Checking..." : "Confirm"}
            </Button>
          </form>
        ) : null}
      </div>
    </Dialog>
  );
}

/**
 * ASVS 7.4.3: after a change to how the account signs in or where its events go, the confirmation offers to end every
 * session (this one included, like Settings' own "Sign out everywhere").
 */
export function useConfirmSecurityChange(): (message: string) => void {
  const revokeAll = useRevokeAllSessions();
  const signOutHere = useLogout();
  const go = useGo();
  return useCallback(
    (message: string) =>
      toast.success(message, {
        duration: 15_000,
        action: {
          label: "Sign out everywhere",
          onClick: () =>
            revokeAll.mutate(undefined, {
              onSuccess: () => {
                signOutHere();
                void go("/login/1");
              },
              onError: (err) => toast.error(err.message),
            }),
        },
      }),
    [revokeAll, signOutHere, go],
  );
}
