import { useEffect, useMemo, useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { DEFAULT_SMS_COUNTRY, DEFAULT_SMS_PROVIDER, type SmsProviderName } from "../../schema/constants";
import { naira } from "../../schema/money";
import type { SmsPublicPriceList } from "../../schema/sms";
import { wholesaleTiersQueryOptions } from "../api/content";
import { publicPricesQueryOptions, SMS_PROVIDER_OPTIONS, useSmsCountries } from "../api/sms";
import { AppLink } from "../components/layout/app-link";
import { PublicPage } from "../components/layout/public-page";
import { useDocumentTitle } from "../components/layout/logo";
import { ServiceLogo } from "../components/sms/service-logo";
import { buttonClasses } from "../components/ui/button";
import { Field } from "../components/ui/field";
import { Input } from "../components/ui/input";
import { LoadError } from "../components/ui/load-error";
import { Select } from "../components/ui/select";
import { Spinner } from "../components/ui/spinner";
import { matchesSearch } from "../lib/search-match";
import { useSessionUser } from "../lib/use-session";
import { formatTime } from "../../schema/datetime";

/** The services a search keeps: by name or by the service's protocol code ("wa"), forgiving one typo like the buy form. */
export function filterServices(services: SmsPublicPriceList["services"], query: string): SmsPublicPriceList["services"] {
  const q = query.trim();
  return q ? services.filter((s) => matchesSearch(s.name, q, [s.id])) : services;
}

/**
 * The public price page (issue 28): every service of a provider in a country with the starter price (what a new
 * customer pays) and stock, before any sign-up. The landing page's "See all services" opens it; it is its own lazy
 * chunk, so the landing page carries only its route entry. Its list is cached at the edge (GET /api/sms/public-prices).
 */
export default function PricesPage() {
  useDocumentTitle("Prices");
  const user = useSessionUser();
  const [provider, setProvider] = useState<SmsProviderName>(DEFAULT_SMS_PROVIDER);
  const [countryId, setCountryId] = useState(DEFAULT_SMS_COUNTRY);
  const [query, setQuery] = useState("");
  const countries = useSmsCountries(provider);
  const prices = useQuery(publicPricesQueryOptions(provider, countryId));
  const countryOptions = useMemo(() => (countries.data ?? []).map((c) => ({ value: String(c.id), label: c.title })), [countries.data]);
  // A provider that does not sell the chosen country shows its first one (the list is only known once loaded).
  useEffect(() => {
    if (countries.data && !countries.data.some((c) => String(c.id) === countryId)) setCountryId(countries.data[0] ? String(countries.data[0].id) : "");
  }, [countries.data, countryId]);
  const shown = useMemo(() => filterServices(prices.data?.services ?? [], query), [prices.data, query]);

  return (
    <PublicPage title="Prices">
      <p>
        What a number for one verification code costs, per service and country, with the numbers in stock now. These are
        starter prices: deposits over time move you to a discount tier, which lowers every price. You pay only for a number
        that gets its code; if none comes, the price goes back to your wallet.
      </p>
      <div className="grid gap-4 sm:grid-cols-3" data-testid="prices-filters">
        <Field label="Provider">
          {(p) => (
            <Select
              {...p}
              options={SMS_PROVIDER_OPTIONS}
              value={provider}
              onValueChange={(value) => setProvider(value as SmsProviderName)}
            />
          )}
        </Field>
        <Field label="Country" error={countries.isError ? countries.error.message : undefined}>
          {(p) => (
            <Select
              {...p}
              searchable
              searchPlaceholder="Search countries..."
              options={countryOptions}
              value={countryId}
              onValueChange={setCountryId}
              loading={countries.isPending}
              loadingText="Loading countries..."
            />
          )}
        </Field>
        <Field label="Find a service">
          {(p) => <Input {...p} type="search" placeholder="WhatsApp, Telegram..." value={query} onChange={(e) => setQuery(e.target.value)} />}
        </Field>
      </div>
      <PriceTable
        list={prices.data}
        shown={shown}
        error={prices.isError ? prices.error : null}
        onRetry={() => void prices.refetch()}
      />
      <WholesaleTiers />
      <div className="flex flex-wrap items-center gap-3">
        <AppLink to={user ? "/sms/1" : "/signup/1"} className={buttonClasses("default", "lg")}>
          {user ? "Buy a number" : "Sign up to buy a number"}
        </AppLink>
        {user ? null : (
          <AppLink to="/login/1" className={buttonClasses("outline", "lg")}>
            Login
          </AppLink>
        )}
      </div>
    </PublicPage>
  );
}

/**
 * Issue 46 (decision 074): resellers' wholesale tiers, public so a bot author can weigh us before signing up. A tier
 * whose list failed to load is left out rather than shown wrong; the setting's own answer is sorted by threshold.
 */
export function WholesaleTiers() {
  const tiers = useQuery(wholesaleTiersQueryOptions());
  if (!tiers.data || tiers.data.length === 0) return null;
  return (
    <section aria-labelledby="wholesale-caption" className="flex flex-col gap-2" data-testid="wholesale-tiers">
      <h2 id="wholesale-caption" className="text-lg font-semibold">
        Wholesale prices for resellers
      </h2>
      <p className="text-sm text-slate-600 dark:text-slate-400">
        A reseller's own prices fall with what it and its sub-accounts spent with us in the last 30 days. A reseller pays the better of its wholesale
        discount and its deposit discount (not both); its customers pay that price plus the reseller's own markup.
      </p>
      <table className="w-full text-left text-sm">
        <thead className="text-xs text-slate-600 dark:text-slate-400">
          <tr>
            <th scope="col" className="px-3 py-2 font-medium">Tier</th>
            <th scope="col" className="px-3 py-2 text-right font-medium">30-day spend from</th>
            <th scope="col" className="px-3 py-2 text-right font-medium">Off every price</th>
          </tr>
        </thead>
        <tbody>
          {tiers.data.map((t) => (
            <tr key={t.name} className="border-t border-slate-200 dark:border-slate-800">
              <th scope="row" className="px-3 py-2 font-medium">{t.name}</th>
              <td className="px-3 py-2 text-right tabular-nums">{naira(t.threshold)}</td>
              <td className="px-3 py-2 text-right tabular-nums">{t.percentage}%</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

function PriceTable({
  list,
  shown,
  error,
  onRetry,
}: {
  list: SmsPublicPriceList | undefined;
  shown: SmsPublicPriceList["services"];
  error: Error | null;
  onRetry: () => void;
}) {
  if (error) return <LoadError what="the prices" error={error} onRetry={onRetry} />;
  if (!list) return <Spinner className="h-6 w-6 text-blue-600" label="Loading prices" />;
  return (
    <section aria-labelledby="prices-caption" className="flex flex-col gap-2">
      <h2 id="prices-caption">
        {list.country} · {SMS_PROVIDER_OPTIONS.find((o) => o.value === list.provider)?.label}
      </h2>
      <p className="text-sm text-slate-600 dark:text-slate-400" data-testid="prices-count">
        {shown.length} of {list.services.length} services · prices as of{" "}
        {formatTime(list.read_at)}
      </p>
      <div className="max-h-[32rem] overflow-y-auto rounded-lg border border-slate-200 dark:border-slate-800" tabIndex={0} aria-label="Prices table">
        <table className="w-full text-left text-sm" data-testid="prices-table">
          <thead className="sticky top-0 bg-slate-50 text-xs text-slate-600 dark:bg-slate-900 dark:text-slate-400">
            <tr>
              <th scope="col" className="px-3 py-2 font-medium">Service</th>
              <th scope="col" className="px-3 py-2 text-right font-medium">Starter price</th>
              <th scope="col" className="px-3 py-2 text-right font-medium">In stock</th>
            </tr>
          </thead>
          <tbody>
            {shown.length === 0 ? (
              <tr>
                <td colSpan={3} className="px-3 py-6 text-center text-slate-600 dark:text-slate-400">
                  No service matches that search.
                </td>
              </tr>
            ) : (
              shown.map((s) => (
                <tr key={s.id} className="border-t border-slate-200 dark:border-slate-800">
                  <th scope="row" className="px-3 py-2 font-medium">
                    <span className="flex items-center gap-2">
                      <ServiceLogo name={s.name} />
                      {s.name}
                    </span>
                  </th>
                  <td className="px-3 py-2 text-right tabular-nums">{naira(s.price)}</td>
                  <td className="px-3 py-2 text-right tabular-nums">{s.count > 0 ? s.count.toLocaleString("en-NG") : "Sold out"}</td>
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
    </section>
  );
}
