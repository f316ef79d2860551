import { useQuery } from "@tanstack/react-query";
import { naira } from "../../../schema/money";
import { refShareQueryOptions } from "../../api/developer";

/**
 * The developer's `ref` share on the API reference page (issue 46, docs/decisions/075): the code a tool puts in `ref`,
 * how (a curl line for each API), the share, and what it earned (net of reversals) in all and over the last 30 days.
 * Shown only to a signed-in customer; the figures are the live wallet's (a test key's purchases earn sandbox money).
 */
export function DeveloperShare({ baseUrl }: { baseUrl: string }) {
  const share = useQuery(refShareQueryOptions());
  if (share.isPending) return null;
  if (share.isError) return <p className="text-red-700 dark:text-red-400">Your developer share could not be loaded.</p>;
  const s = share.data;
  return (
    <section aria-labelledby="ref-share-title" className="flex flex-col gap-2 rounded-md border border-slate-200 p-4 dark:border-slate-800" data-testid="ref-share">
      <h2 id="ref-share-title" className="text-lg font-semibold text-slate-900 dark:text-white">
        Your developer share
      </h2>
      <p>
        Put your code in <code>ref</code> on the purchases your tool makes for its users: you earn {s.percent}% of our price of
        every order and rental they keep, credited to your wallet when the code arrives (taken back if support refunds it) or
        when the rental ends unrefunded. They pay the same.
      </p>
      <dl className="grid grid-cols-2 gap-x-4 gap-y-1 sm:grid-cols-4">
        <dt className="text-sm text-slate-600 dark:text-slate-400">Your code</dt>
        <dd>
          <code data-testid="ref-code">{s.code}</code>
        </dd>
        <dt className="text-sm text-slate-600 dark:text-slate-400">Earned</dt>
        <dd data-testid="ref-earned">
          {naira(s.earned)} · {purchasesText(s.orders)}
        </dd>
        <dt className="text-sm text-slate-600 dark:text-slate-400">Last 30 days</dt>
        <dd data-testid="ref-recent">
          {naira(s.last_30_days.earned)} · {purchasesText(s.last_30_days.orders)}
        </dd>
      </dl>
      <pre tabIndex={0} aria-label="How to send your ref" className="overflow-x-auto rounded-md bg-slate-900 p-3 text-xs leading-relaxed text-slate-100">
        <code>{refExamples(baseUrl, s.code)}</code>
      </pre>
    </section>
  );
}

/** Orders and rentals that earned (decision 075: a rental's share is a `ref_share` row like an order's). */
const purchasesText = (n: number) => `${n} ${n === 1 ? "purchase" : "purchases"}`;

/** A curl line per purchase: the JSON API's `ref` field on an order and a rental, and the protocol's getNumber `ref`. */
export function refExamples(baseUrl: string, code: string): string {
  const base = baseUrl.replace(/\/+$/, "");
  const site = base.replace(/\/api\/v1$/, "");
  return [
    `curl -s "${base}/sms/orders" -H "Authorization: Bearer $VNUM_KEY" -H "Idempotency-Key: $(uuidgen)" \\`,
    `  -H "Content-Type: application/json" -d '{"service":"wa","country":"5","ref":"${code}"}'`,
    `curl -s "${base}/rentals" -H "Authorization: Bearer $VNUM_KEY" -H "Idempotency-Key: $(uuidgen)" \\`,
    `  -H "Content-Type: application/json" -d '{"country":"5","duration":"hour","period":1,"ref":"${code}"}'`,
    `curl -s "${site}/stubs/handler_api.php?api_key=$VNUM_KEY&action=getNumber&service=wa&country=187&ref=${code}"`,
  ].join("\n");
}
