import { useAccount, useResendVerification } from "../../api/account-security";
import { toast } from "../../lib/toast";
import { Badge } from "../ui/badge";
import { Button } from "../ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../ui/card";

/** Settings: whether the address is confirmed, and "send the link again". */
export function EmailSection() {
  const account = useAccount();
  const resend = useResendVerification();
  const verified = account.data?.email_verified;
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          E-mail address {account.data ? <Badge variant={verified ? "success" : "warning"}>{verified ? "Confirmed" : "Not confirmed"}</Badge> : null}
        </CardTitle>
        <CardDescription>
          {verified
            ? "Your address is confirmed."
            : "Confirm your address with the link we e-mailed you. Creating API keys needs it; funding and buying numbers do not."}
        </CardDescription>
      </CardHeader>
      {account.data && !verified ? (
        <CardContent>
          <Button
            variant="outline"
            disabled={resend.isPending}
            onClick={() =>
              resend.mutate(undefined, {
                onSuccess: (res) => toast.success(res.message),
                onError: (err) => toast.error(err.message),
              })
            }
          >
            {resend.isPending ? "Sending..." : "Send the link again"}
          </Button>
        </CardContent>
      ) : null}
    </Card>
  );
}
