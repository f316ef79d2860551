import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { EMAIL_VERIFY_MESSAGES } from "../../schema/account-messages";
import { verifyEmail } from "../api/account-security";
import { AppLink, useAppSearch } from "../components/layout/app-link";
import { AuthLayout, textLinkClasses } from "../components/auth/auth-layout";
import { ApiError } from "../api/client";
import { Alert } from "../components/ui/alert";
import { Button } from "../components/ui/button";
import { Spinner } from "../components/ui/spinner";
import { isSignedIn } from "../lib/session";
import { useDocumentTitle } from "../components/layout/logo";
import * as queryKeys from "../api/keys";

/** No answer, or a server fault: the single-use link was not spent, so the page offers to send it again. */
function canRetry(err: Error): boolean {
  return !(err instanceof ApiError) || err.status === 0 || err.status >= 500;
}

/**
 * The page the confirmation e-mail links to (#/verify-email?token=..&id=..). It works signed in or not (the link may be
 * opened on another device) and sends the link once: a second send of a single-use link would report it as used.
 */
export default function VerifyEmailPage() {
  useDocumentTitle("Verify e-mail");
  const { token, id } = useAppSearch<{ token: string; id: string }>();
  const queryClient = useQueryClient();
  const verify = useMutation({
    mutationFn: verifyEmail,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.account }),
  });
  const sent = useRef(false);

  useEffect(() => {
    if (sent.current || !token || !id) return;
    sent.current = true;
    verify.mutate({ token, id });
  }, [token, id, verify]);

  const next = isSignedIn() ? { to: "/dashboard/1", label: "Go to your dashboard" } : { to: "/login/1", label: "Log in" };
  return (
    <AuthLayout
      title="Confirm your e-mail"
      footer={
        <AppLink to={next.to} className={textLinkClasses}>
          {next.label}
        </AppLink>
      }
    >
      {!token || !id ? (
        <Alert variant="error">{EMAIL_VERIFY_MESSAGES.invalidLink}</Alert>
      ) : verify.isSuccess ? (
        <Alert variant="success">{verify.data?.message || EMAIL_VERIFY_MESSAGES.verified}</Alert>
      ) : verify.isError ? (
        canRetry(verify.error) ? (
          // The request never got an answer (or the server failed): the link was not used up, so sending it again is safe.
          <Alert variant="error">
            <div className="flex flex-wrap items-center justify-between gap-2">
              <p>Could not confirm your address: {verify.error.message.replace(/[.!]\s*$/, "")}. Your link still works: try again.</p>
              <Button variant="outline" size="sm" onClick={() => verify.mutate({ token, id })}>
                Try again
              </Button>
            </div>
          </Alert>
        ) : (
          // Refused (used, expired, not this link): only a new link helps, and Settings sends one.
          <Alert variant="error">
            <p>{verify.error.message || EMAIL_VERIFY_MESSAGES.invalidLink}</p>
            <p className="mt-1">
              {isSignedIn() ? (
                <AppLink to="/settings/1" className={textLinkClasses}>
                  Send a new link from Settings
                </AppLink>
              ) : (
                "Log in, then send a new link from Settings."
              )}
            </p>
          </Alert>
        )
      ) : (
        <p role="status" className="flex items-center gap-2 text-sm text-slate-600 dark:text-slate-300">
          <Spinner /> Confirming your address...
        </p>
      )}
    </AuthLayout>
  );
}
