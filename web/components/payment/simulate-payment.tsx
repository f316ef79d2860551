import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { api, json, pathParams, sandboxTools } from "../../api/client";
import { Button } from "../ui/button";
import * as queryKeys from "../../api/keys";

/**
 * Sandbox only: pays a crypto invoice the way NOWPayments would (the sandbox simulator marks it finished and sends the
 * signed IPN), so a newcomer can finish the crypto journey without curl. Two gates: the build (scripts/local-env.ts: only the
 * local builds of `npm start` and the tests set VITE_SANDBOX_TOOLS, so a deployable `npm run build` carries none of
 * this), and the server, which says it runs sandbox providers and serves /sandbox/* only then.
 */
export function SimulatePayment({ paymentId, onPaid }: { paymentId: string; onPaid: () => void }) {
  const health = useQuery({
    queryKey: queryKeys.health,
    queryFn: () => api.health.$get().then(json),
    staleTime: Infinity,
  });
  const queryClient = useQueryClient();
  const [state, setState] = useState<"idle" | "busy" | "failed">("idle");
  if (health.data?.providers !== "sandbox") return null;
  const pay = async () => {
    setState("busy");
    try {
      // A sandbox tool (worker/contract/sandbox-tools.ts): the route exists only with sandbox providers.
      await sandboxTools[":paymentId"].status.$post({ param: pathParams({ paymentId }), json: { payment_status: "finished" } });
      setState("idle");
      await queryClient.invalidateQueries();
      onPaid();
    } catch {
      setState("failed");
    }
  };
  return (
    <div className="flex flex-col gap-2 rounded-lg border border-dashed border-violet-400 p-3 text-sm dark:border-violet-600" data-testid="sandbox-tools">
      <p className="text-slate-700 dark:text-slate-200">
        Sandbox: no real coins move. Payment id <span className="font-mono">{paymentId}</span>.
      </p>
      <Button variant="outline" onClick={() => void pay()} disabled={state === "busy"}>
        {state === "busy" ? "Simulating..." : "Simulate payment"}
      </Button>
      {state === "failed" ? (
        <p role="alert" className="text-red-700 dark:text-red-400">
          The sandbox did not accept the payment. Check that `npm start` is still running, then try again.
        </p>
      ) : null}
    </div>
  );
}
