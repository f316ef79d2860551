import { useState } from "react";
import type { SmsCompareRoute } from "../../../schema/sms";
import { naira } from "../../../schema/money";
import type { SmsProviderName } from "../../../schema/constants";
import { SMS_PROVIDER_LABELS, useSmsCompare } from "../../api/sms";
import { Button } from "../ui/button";
import { Dialog } from "../ui/dialog";
import { LoadError } from "../ui/load-error";
import { Spinner } from "../ui/spinner";
import { sortRoutes, type CompareSort } from "./service-order";
import { useMediaQuery } from "../../lib/use-media-query";
import { ORDER_CARDS_QUERY } from "../orders/orders-table";

/** A route's success figure in words: the rate over its sample, or why there is none yet. */
export function successText(r: SmsCompareRoute): string {
  if (r.stats) return `${Math.round(r.stats.success_rate * 100)}% of ${r.sample}`;
  return r.sample === 0 ? "No orders yet" : `Only ${r.sample} order${r.sample === 1 ? "" : "s"}: too few to rate`;
}

/**
 * Every provider and country selling the chosen service: price, stock, and our own last-7-days success rate and median
 * time to code, the latter two only where the server had enough orders (it sends null below its minimum sample, and
 * the sample size either way). Choosing a row fills the purchase form with that route.
 */
export function CompareDialog({
  open,
  onClose,
  provider,
  serviceId,
  onChoose,
}: {
  open: boolean;
  onClose: () => void;
  provider: SmsProviderName;
  serviceId: string;
  onChoose: (route: SmsCompareRoute) => void;
}) {
  const compare = useSmsCompare(provider, serviceId, open);
  const [sort, setSort] = useState<CompareSort>("price");
  const data = compare.data;
  const routes = data ? sortRoutes(data.routes, sort) : [];
  // Issue 28: on a phone seven columns cannot fit, so each route stacks (country, price, success, Choose on screen).
  const narrow = useMediaQuery(ORDER_CARDS_QUERY);
  const choose = (r: SmsCompareRoute) => (
    <Button size="sm" variant="outline" disabled={r.count <= 0} onClick={() => onChoose(r)} aria-label={`Choose ${SMS_PROVIDER_LABELS[r.provider]} ${r.country}`}>
      Choose
    </Button>
  );
  return (
    <Dialog open={open} onOpenChange={(next) => !next && onClose()} title={data ? `Compare routes: ${data.service}` : "Compare routes"} className="max-w-3xl">
      {compare.isPending ? (
        <p className="flex items-center gap-2 text-sm text-slate-600 dark:text-slate-400" role="status">
          <Spinner className="h-5 w-5 text-blue-600" /> Loading every provider and country for this service...
        </p>
      ) : compare.isError ? (
        <LoadError what="the routes for this service" error={compare.error} onRetry={() => void compare.refetch()} />
      ) : data && routes.length === 0 ? (
        <p className="text-sm text-slate-600 dark:text-slate-400" data-testid="sms-compare-empty">
          No provider or country sells {data.service} right now. Close this and choose another service, or try again later.
        </p>
      ) : data ? (
        <div className="flex flex-col gap-3">
          <div className="flex items-center gap-2 text-sm" role="group" aria-label="Sort routes">
            <span className="text-slate-600 dark:text-slate-400">Sort by</span>
            <Button size="sm" variant={sort === "price" ? "default" : "outline"} aria-pressed={sort === "price"} onClick={() => setSort("price")}>
              Price
            </Button>
            <Button size="sm" variant={sort === "success" ? "default" : "outline"} aria-pressed={sort === "success"} onClick={() => setSort("success")}>
              Success rate
            </Button>
          </div>
          <p className="text-xs text-slate-600 dark:text-slate-400">
            Success rate and time to code come from our own orders of the last {data.window_days} days, shown once a route has at
            least {data.min_sample} of them.
          </p>
          {narrow ? (
            <ul className="flex max-h-[60vh] flex-col gap-2 overflow-y-auto" aria-label="Routes">
              {routes.map((r) => (
                <li key={`${r.provider}:${r.country_id}`} className="flex items-center justify-between gap-3 rounded-lg border border-slate-200 p-3 text-sm dark:border-slate-700" data-testid="compare-route">
                  <div className="min-w-0">
                    <p className="font-semibold">{r.country}</p>
                    <p className="text-slate-600 dark:text-slate-400">
                      {SMS_PROVIDER_LABELS[r.provider]} · {r.count} in stock
                    </p>
                    <p>
                      <span className="font-semibold tabular-nums">{naira(r.price)}</span> · Success: {successText(r)}
                      {r.stats?.median_seconds_to_code != null ? ` · code in ${Math.round(r.stats.median_seconds_to_code)} s` : ""}
                    </p>
                  </div>
                  {choose(r)}
                </li>
              ))}
            </ul>
          ) : (
          <div className="max-h-[60vh] overflow-auto">
            <table className="w-full text-left text-sm" data-testid="sms-compare-table">
              <thead className="text-xs uppercase text-slate-600 dark:text-slate-400">
                <tr>
                  <th className="py-1 pr-2">Provider</th>
                  <th className="py-1 pr-2">Country</th>
                  <th className="py-1 pr-2">Price</th>
                  <th className="py-1 pr-2">Stock</th>
                  <th className="py-1 pr-2">Success</th>
                  <th className="py-1 pr-2">Median time to code</th>
                  <th className="py-1"><span className="sr-only">Choose</span></th>
                </tr>
              </thead>
              <tbody>
                {routes.map((r) => (
                  <tr key={`${r.provider}:${r.country_id}`} className="border-t border-slate-200 dark:border-slate-700" data-testid="compare-route">
                    <td className="py-1.5 pr-2">{SMS_PROVIDER_LABELS[r.provider]}</td>
                    <td className="py-1.5 pr-2">{r.country}</td>
                    <td className="py-1.5 pr-2">{naira(r.price)}</td>
                    <td className="py-1.5 pr-2">{r.count}</td>
                    {r.stats ? (
                      <>
                        <td className="py-1.5 pr-2">
                          {Math.round(r.stats.success_rate * 100)}% <span className="text-xs text-slate-600 dark:text-slate-400">of {r.sample}</span>
                        </td>
                        <td className="py-1.5 pr-2">{r.stats.median_seconds_to_code === null ? "—" : `${Math.round(r.stats.median_seconds_to_code)} s`}</td>
                      </>
                    ) : (
                      <td className="py-1.5 pr-2 text-xs text-slate-600 dark:text-slate-400" colSpan={2}>
                        {r.sample === 0 ? "No orders yet" : `Only ${r.sample} order${r.sample === 1 ? "" : "s"}: too few to rate`}
                      </td>
                    )}
                    <td className="py-1.5">{choose(r)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          )}
        </div>
      ) : null}
    </Dialog>
  );
}
