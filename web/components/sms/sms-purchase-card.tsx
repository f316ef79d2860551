import { useQueryClient } from "@tanstack/react-query";
import { lazy, Suspense, useEffect, useMemo, useState } from "react";
import { toast } from "../../lib/toast";
import { naira } from "../../../schema/money";
import { ApiError } from "../../api/client";
import {
  SMS_PROVIDER_LABELS,
  SMS_PROVIDER_OPTIONS,
  smsCountriesQueryOptions,
  useBuyNumber,
  useBuyNumbers,
  useSmsFavourites,
  useToggleFavourite,
  useSmsCompare,
  useSmsCountries,
  useSmsOffer,
  useSmsPrices,
} from "../../api/sms";
import { DEFAULT_SMS_COUNTRY, DEFAULT_SMS_PROVIDER, MAX_SMS_QUANTITY, type SmsProviderName } from "../../../schema/constants";
import type { SmsCountryEntry } from "../../../schema/sms";
import { useBalance } from "../../api/wallet";
import { holdTimeWords, useSmsHoldTime } from "../../api/sms-hold";
import { ShortfallNotice, shortfallFrom, shortfallNaira, shortfallText } from "../payment/shortfall";
import { forgetSmsChoice, peekSmsChoice, rememberSmsChoice } from "../payment/fund-return";
import { Button } from "../ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "../ui/card";
import { Field } from "../ui/field";
import { Input } from "../ui/input";
import { Select } from "../ui/select";
import { LoadError } from "../ui/load-error";
import { Spinner } from "../ui/spinner";
import { Dialog } from "../ui/dialog";
import { parseMaxPrice, priceChoiceFrom, type PriceChoice } from "./price-choice";
import { CompareDialog } from "./compare-dialog";
import { ServiceLogo } from "./service-logo";
import { formatPhone } from "../../lib/format";
import { favouritesFirst } from "./service-order";
import { allowedRoutes, nextRouteCandidates, routeKey } from "./next-route";
import { BarChart3, Star } from "lucide-react";
import type { PendingSmsRequest } from "./pending-request";
import { countryAfterProviderChange } from "./provider-country";
import { EmojiText } from "../ui/emoji-text";
import { SMS_ERROR_MESSAGE, SMS_TIMEOUT_MESSAGE } from "../../../schema/constants";
import type { ShownRequest } from "./use-active-sms-request";
import * as queryKeys from "../../api/keys";
import { areasError, choiceParams, NO_CHOICE, type ChoiceFields } from "./offer-words";

/** The offer beside the Buy button (issue 49): its own chunk, loaded once a service is chosen. */
const OfferPanel = lazy(() => import("./offer-panel"));

/** Provider faults and refusals the customer can act on: a toast, as the spec's error_msg. */
const TOAST_CODES = new Set([
  "INSUFFICIENT_BALANCE",
  "VALIDATION_FAILED",
  "PRICE_CHANGED",
  "NO_NUMBERS",
  "UPSTREAM_UNAVAILABLE",
  "UPSTREAM_TIMEOUT",
  "RATE_LIMITED",
  "INVALID_STATE",
]);

function NumberBox({ shown }: { shown: ShownRequest | null }) {
  if (!shown || shown.phase === "cancelled") {
    return (
      <p className="rounded-lg border border-dashed border-slate-300 p-4 text-center text-sm text-slate-600 dark:border-slate-700 dark:text-slate-400">
        Your number and its code will appear here.
      </p>
    );
  }
  return (
    // Number and code side by side where both fit whole, else one above the other: a number is never cut ("+234 345
    // 69…" at 360 px, issue 43).
    <div className="flex flex-wrap gap-x-8 gap-y-3 rounded-lg border border-slate-200 bg-slate-50 p-4 dark:border-slate-700 dark:bg-slate-800/60" data-testid="sms-number-box">
      <div>
        <p className="text-xs font-medium uppercase tracking-wide text-slate-600 dark:text-slate-400">Number</p>
        <p className="whitespace-nowrap font-mono text-base font-semibold" data-testid="sms-number">{formatPhone(shown.number)}</p>
      </div>
      <div className="min-w-0" aria-live="polite">
        <p className="text-xs font-medium uppercase tracking-wide text-slate-600 dark:text-slate-400">Code</p>
        {shown.phase === "received" ? (
          <p className="font-mono text-xl font-bold tracking-widest text-emerald-700 dark:text-emerald-400" data-testid="sms-code">{shown.code}</p>
        ) : shown.phase === "timeout" ? (
          <p className="text-sm font-medium text-red-700 dark:text-red-400" data-testid="sms-code"><EmojiText text={SMS_TIMEOUT_MESSAGE} /></p>
        ) : shown.phase === "error" ? (
          <p className="text-sm font-medium text-red-700 dark:text-red-400" data-testid="sms-code"><EmojiText text={SMS_ERROR_MESSAGE} /></p>
        ) : (
          <Spinner className="mt-1 h-5 w-5 text-blue-600" label="Waiting for the code" />
        )}
      </div>
    </div>
  );
}

/**
 * What the two provider names mean to a customer (Swift SMS is the SMS-Activate-compatible US upstream, DaisySMS;
 * Dynamic SMS is sms-man, with numbers in many countries): countries, speed and how the price is set.
 */
const PROVIDER_HINT = "Swift SMS: US numbers, usually the quickest codes. Dynamic SMS: numbers in many countries, priced by country and service.";

/**
 * The left card of Receive SMS, in the spec's order: provider, country, service, stock and Get Number (once both are
 * chosen), then the number and its code. Every price shown is the server's `price` for this customer.
 */
export function SmsPurchaseCard({
  shown,
  onPurchased,
  onUnexpectedError,
}: {
  /** The number the dialog follows. Buying another while it waits is allowed: each is its own order and entry (issue 28). */
  shown: ShownRequest | null;
  onPurchased: (request: PendingSmsRequest) => void;
  onUnexpectedError: (detail: string) => void;
}) {
  const qc = useQueryClient();
  // Back from Fund Wallet after a shortfall (issue 43): the choice the customer had, kept for the way back.
  const [kept] = useState(() => {
    const choice = peekSmsChoice();
    return choice && SMS_PROVIDER_OPTIONS.some((o) => o.value === choice.provider) ? choice : null;
  });
  useEffect(() => {
    if (kept) forgetSmsChoice();
  }, [kept]);
  const [provider, setProvider] = useState<SmsProviderName>((kept?.provider as SmsProviderName | undefined) ?? DEFAULT_SMS_PROVIDER);
  const [countryId, setCountryId] = useState(kept?.countryId ?? DEFAULT_SMS_COUNTRY);
  const [serviceId, setServiceId] = useState(kept?.serviceId ?? "");
  const [maxPriceText, setMaxPriceText] = useState("");
  // "If no code comes, try another number" and its naira cap for the next number (empty: the price of this one).
  const [tryNext, setTryNext] = useState(false);
  const [capText, setCapText] = useState("");
  // Routes the customer unticked ("provider:country"); every other candidate is allowed.
  const [unticked, setUnticked] = useState<ReadonlySet<string>>(new Set());
  const [quantity, setQuantity] = useState(kept?.quantity ?? 1);
  // The routes come from the compare view's own query, read only once the box is ticked.
  const compare = useSmsCompare(provider, serviceId, tryNext);
  const buyMany = useBuyNumbers();
  const favourites = useSmsFavourites();
  const toggleFavourite = useToggleFavourite();
  const [comparing, setComparing] = useState(false);
  const [priceChoice, setPriceChoice] = useState<PriceChoice | null>(null);
  const countries = useSmsCountries(provider);
  const prices = useSmsPrices(provider, countryId);
  const balance = useBalance();
  const buy = useBuyNumber();
  const holdTime = useSmsHoldTime();
  // Issue 28: a purchase the wallet cannot pay shows what is missing, with Fund wallet prefilled (until the choice changes).
  const [shortfall, setShortfall] = useState<number | null>(null);
  useEffect(() => setShortfall(null), [provider, countryId, serviceId, quantity]);
  // Issue 49: the number asked for (carrier, area codes, operator), kept only for the offer it was chosen on.
  const [fields, setFields] = useState<ChoiceFields>(NO_CHOICE);
  useEffect(() => setFields(NO_CHOICE), [provider, countryId, serviceId]);

  // Dynamic resets to its first country, which is only known once its list has loaded.
  useEffect(() => {
    if (countryId === "" && countries.data?.length) setCountryId(countryAfterProviderChange(provider, countries.data));
  }, [countryId, countries.data, provider]);

  const countryOptions = useMemo(
    () => (countries.data ?? []).map((c: SmsCountryEntry) => ({ value: String(c.id), label: c.title })),
    [countries.data],
  );
  // Starred services first, marked with a star (the list's search still finds every service by name).
  const serviceOptions = useMemo(
    () =>
      favouritesFirst(prices.data ?? [], provider, favourites.data).map(({ service: s, starred }) => ({
        value: String(s.application_id),
        label: `${starred ? "★ " : ""}${s.application} — ${naira(s.price)}`,
        description: `${s.count} in stock`,
        disabled: s.count <= 0,
        icon: <ServiceLogo name={s.application} />,
        // The protocol code ("wa") finds the service too (issue 28).
        keywords: [String(s.application_id)],
      })),
    [prices.data, provider, favourites.data],
  );
  const isFavourite = (favourites.data ?? []).some((f) => f.provider === provider && f.service_id === serviceId);
  const service = prices.data?.find((s) => String(s.application_id) === serviceId);

  const changeProvider = (value: string) => {
    const next = value as SmsProviderName;
    setProvider(next);
    setCountryId(countryAfterProviderChange(next, qc.getQueryData(smsCountriesQueryOptions(next).queryKey)));
    setServiceId("");
  };

  const maxPrice = parseMaxPrice(maxPriceText);
  const chosenNow = Boolean(countryId && serviceId && service);
  const choice = choiceParams(fields);
  const offer = useSmsOffer(
    { provider, country: countryId, service: serviceId, ...(typeof maxPrice === "number" ? { cap: String(maxPrice) } : {}), ...choice },
    chosenNow && !areasError(fields.areas, 10),
  );
  const offerData = offer.data?.service_id === serviceId ? offer.data : undefined;
  const choosing = Object.keys(choice).length > 0;
  // With a choice the price is the offer's (its documented surcharge said before the click), else the list's.
  const unitPrice = choosing ? offerData?.price : service?.price;
  // With several numbers each is its own chain (docs/decisions/026): the dialog follows the first, the list the others.
  const cap = tryNext ? (capText.trim() === "" ? service?.price : parseMaxPrice(capText)) : undefined;
  const candidates = compare.data && typeof cap === "number" ? nextRouteCandidates(compare.data.routes, { provider, countryId }, cap) : [];
  const allowed = allowedRoutes(candidates, unticked);

  /** Buys at `price` (naira, as agreed on screen) never above `ceiling`: the server checks both and charges nothing above. */
  const purchase = (price: number, ceiling: number | undefined) => {
    const nextRoute =
      typeof cap === "number" ? { next_route: { cap, ...(Array.isArray(allowed) ? { routes: allowed } : {}) } } : {};
    const body = { provider, country: countryId, service: serviceId, price, ...(ceiling !== undefined ? { max_price: ceiling } : {}), ...nextRoute, ...choice };
    const onError = (err: Error) => {
      if (err instanceof ApiError && err.code === "PRICE_CHANGED") void qc.invalidateQueries({ queryKey: queryKeys.smsPrices(provider, countryId) });
      // A price above what the customer agreed to is a choice (buy at the new price / cancel), not a dead end.
      const choice = priceChoiceFrom(err);
      if (choice) setPriceChoice(choice);
      else if (err instanceof ApiError && err.code === "INSUFFICIENT_BALANCE") {
        const missing = shortfallFrom(err);
        setShortfall(missing);
        toast.error(missing ? shortfallText(missing) : "Insufficient balance");
      } else if (err instanceof ApiError && (TOAST_CODES.has(err.code) || (err.status >= 400 && err.status < 500))) toast.error(err.message);
      else onUnexpectedError(err.message);
    };
    if (quantity > 1) {
      buyMany.mutate(
        { ...body, quantity },
        {
          onSuccess: (res) => {
            const [first, ...rest] = res.orders;
            if (!first) return;
            toast.success(`${res.orders.length} numbers purchased successfully`);
            if (res.error) toast.error(`Bought ${res.orders.length} of ${res.requested}: ${res.error.message}`);
            onPurchased({
              request_id: first.phone.request_id,
              debitRef: first.debitRef,
              number: first.phone.number,
              purchased_number: first.phone.number,
              cost: first.price,
              sms: null,
              createdAt: Date.now(),
              others: rest.map((o) => ({ request_id: o.phone.request_id, number: o.phone.number })),
            });
          },
          onError,
        },
      );
      return;
    }
    buy.mutate(
      body,
      {
        onSuccess: (res) => {
          // One toast per event (issue 28; the spec's client showed two, 'number purchased successfully' and 'purchased
          // number successfully', for the one purchase). A lower charge than shown (a price fall) is said in the same one.
          toast.success(res.message ? `number purchased successfully. ${res.message}` : "number purchased successfully");
          const number = res.table?.purchased_number ?? res.phone.number;
          onPurchased({
            request_id: String(res.table?.reference_code ?? res.phone.request_id),
            debitRef: res.debitRef,
            number,
            purchased_number: number,
            cost: res.price ?? price,
            sms: null,
            createdAt: Date.now(),
          });
        },
        onError,
      },
    );
  };

  const getNumber = () => {
    if (!serviceId || !countryId || !service) {
      toast.error("Missing service or country");
      return;
    }
    if (maxPrice === "invalid") {
      toast.error("Max price must be an amount in naira above ₦0.");
      return;
    }
    if (cap === "invalid") {
      toast.error("The most you will pay for another number must be an amount in naira above ₦0.");
      return;
    }
    if (typeof cap === "number" && allowed === "none") {
      toast.error("Tick at least one other route, or untick 'If no code comes, try another number'.");
      return;
    }
    if (unitPrice === undefined || (choosing && offer.isError)) {
      toast.error(offer.isError ? offer.error.message : "Wait a moment: the price of your choice is being checked.");
      return;
    }
    if (balance.data !== undefined && unitPrice * quantity > balance.data) {
      const missing = shortfallNaira(unitPrice * quantity, balance.data);
      setShortfall(missing);
      toast.error(shortfallText(missing));
      return;
    }
    purchase(unitPrice, maxPrice);
  };

  const chosen = Boolean(countryId && serviceId && service);

  return (
    <Card>
      <CardHeader>
        <CardTitle>Buy a number</CardTitle>
      </CardHeader>
      <CardContent className="@container flex flex-col gap-4">
        {/* Where the card is wide (from 42rem: a laptop, not the 380 px column of a wide screen) the choices sit side by
            side: the card spreads across the page instead of leaving it empty beside long fields (issue 43), and the
            orders below come into view sooner. */}
        <div className="grid gap-4 @2xl:grid-cols-3">
          <Field label="Provider" hint={PROVIDER_HINT}>
            {(p) => (
              <Select
                {...p}
                options={SMS_PROVIDER_OPTIONS}
                value={provider}
                onValueChange={changeProvider}
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
                onValueChange={(v) => {
                  setCountryId(v);
                  setServiceId("");
                }}
                loading={countries.isPending}
                loadingText="Loading countries..."
                placeholder="Select a country"
              />
            )}
          </Field>
          <Field label="Service" error={prices.isError ? prices.error.message : undefined}>
            {(p) => (
              <Select
                {...p}
                searchable
                searchPlaceholder="Search services..."
                options={serviceOptions}
                value={serviceId}
                onValueChange={setServiceId}
                loading={Boolean(countryId) && prices.isPending}
                loadingText="Loading services..."
                placeholder={countryId ? "Select a service" : "Select a country first"}
                disabled={!countryId}
              />
            )}
          </Field>
        </div>
        {chosen && service ? (
          <>
            <div className="flex flex-wrap gap-2">
              <Button
                variant="outline"
                size="sm"
                aria-pressed={isFavourite}
                disabled={toggleFavourite.isPending}
                onClick={() =>
                  toggleFavourite.mutate(
                    { provider, service_id: serviceId, starred: !isFavourite },
                    { onError: (err) => toast.error(err.message) },
                  )
                }
              >
                <Star className={isFavourite ? "h-4 w-4 fill-amber-400 text-amber-500" : "h-4 w-4"} aria-hidden />
                {isFavourite ? "Starred" : "Star this service"}
              </Button>
              <Button variant="outline" size="sm" onClick={() => setComparing(true)}>
                <BarChart3 className="h-4 w-4" aria-hidden />
                Compare routes
              </Button>
            </div>
            <div className="grid gap-4 @2xl:grid-cols-3">
                <Field label="Stock">{(p) => <Input {...p} readOnly value={String(service.count)} />}</Field>
                <Field label="How many numbers" hint={`Up to ${MAX_SMS_QUANTITY} numbers for this service, each its own order and refund.`}>
                  {(p) => (
                    <Select
                      {...p}
                      options={Array.from({ length: MAX_SMS_QUANTITY }, (_, i) => i + 1).map((n) => ({ value: String(n), label: n === 1 ? "1 number" : `${n} numbers — ${naira(service.price * n)}` }))}
                      value={String(quantity)}
                      onValueChange={(v) => setQuantity(Number(v))}
                    />
                  )}
                </Field>
                <Field
                  label="Max price (optional)"
                  hint="Never pay more than this: if the price rises above it, you are asked first and nothing is charged."
                  error={maxPrice === "invalid" ? "Enter an amount in naira above ₦0." : undefined}
                >
                  {(p) => (
                    <Input
                      {...p}
                      inputMode="decimal"
                      placeholder={`e.g. ${naira(service.price)}`}
                      value={maxPriceText}
                      onChange={(e) => setMaxPriceText(e.target.value)}
                      data-testid="sms-max-price"
                    />
                  )}
                </Field>
            </div>
            <Suspense fallback={null}>
              <OfferPanel
                offer={offerData}
                pending={offer.isPending}
                error={offer.isError && choosing ? offer.error.message : null}
                fields={fields}
                onFields={setFields}
                onBetter={(better) => {
                  setProvider(better.provider);
                  setCountryId(better.country_id);
                  setServiceId(better.service_id);
                }}
              />
            </Suspense>
            <div className="flex flex-col gap-2 rounded-lg border border-slate-200 p-3 dark:border-slate-700">
              <label className="flex items-start gap-2 text-sm">
                <input
                  type="checkbox"
                  className="mt-0.5 h-4 w-4 accent-blue-600"
                  checked={tryNext}
                  onChange={(e) => setTryNext(e.target.checked)}
                  data-testid="sms-try-next"
                />
                <span>
                  If no code comes, try another number
                  <span className="block text-xs text-slate-600 dark:text-slate-400" data-testid="sms-try-next-hint">
                    {quantity > 1
                      ? `Each of your ${quantity} numbers tries on its own: the cheapest other country or provider for this service, up to 3 numbers each. Each number without a code is refunded: you pay only for the ones that get a code.`
                      : "The cheapest other country or provider for this service, up to 3 numbers in all. Each number without a code is refunded: you pay only for the one that gets a code."}
                  </span>
                </span>
              </label>
              {tryNext ? (
                <>
                <Field
                  label="Most you will pay for another number"
                  error={cap === "invalid" ? "Enter an amount in naira above ₦0." : undefined}
                >
                  {(p) => (
                    <Input
                      {...p}
                      inputMode="decimal"
                      placeholder={`${naira(service.price)}`}
                      value={capText}
                      onChange={(e) => setCapText(e.target.value)}
                      data-testid="sms-next-cap"
                    />
                  )}
                </Field>
                <fieldset className="flex flex-col gap-1" data-testid="sms-next-routes">
                  <legend className="text-xs font-medium text-slate-600 dark:text-slate-400">Numbers it may try, cheapest first</legend>
                  {compare.isPending ? (
                    <Spinner className="h-4 w-4 text-blue-600" label="Loading routes" />
                  ) : compare.isError ? (
                    <LoadError what="the other routes" error={compare.error} onRetry={() => void compare.refetch()} />
                  ) : candidates.length === 0 ? (
                    <p className="text-xs text-slate-600 dark:text-slate-400">No other route sells this service within that amount right now.</p>
                  ) : (
                    <ul className="flex max-h-40 flex-col gap-1 overflow-y-auto">
                      {candidates.map((r) => {
                        const key = routeKey(r);
                        return (
                          <li key={key}>
                            <label className="flex items-center gap-2 text-sm">
                              <input
                                type="checkbox"
                                className="h-4 w-4 accent-blue-600"
                                checked={!unticked.has(key)}
                                onChange={(e) => {
                                  const next = new Set(unticked);
                                  if (e.target.checked) next.delete(key);
                                  else next.add(key);
                                  setUnticked(next);
                                }}
                              />
                              {r.country} · {SMS_PROVIDER_LABELS[r.provider]} — {naira(r.price)}
                            </label>
                          </li>
                        );
                      })}
                    </ul>
                  )}
                </fieldset>
                </>
              ) : null}
            </div>
            <Button onClick={getNumber} disabled={buy.isPending || buyMany.isPending} size="lg">
              {buy.isPending || buyMany.isPending ? <Spinner className="h-4 w-4" /> : null}
              {quantity > 1 ? `Get ${quantity} Numbers` : "Get Number"}
            </Button>
            {holdTime.data ? (
              // Issue 28: said before purchase, from the operator's polling setting.
              <p className="text-xs text-slate-700 dark:text-slate-200" data-testid="sms-hold-time">
                The number waits up to {holdTimeWords(holdTime.data.seconds)} for its code. If none comes by then, you are refunded automatically.
              </p>
            ) : null}
            {shortfall ? (
              <ShortfallNotice amount={shortfall} back="sms" onFund={() => rememberSmsChoice({ provider, countryId, serviceId, quantity })} />
            ) : null}
          </>
        ) : null}
        <NumberBox shown={shown} />
      </CardContent>
      {comparing ? (
        <CompareDialog
          open
          onClose={() => setComparing(false)}
          provider={provider}
          serviceId={serviceId}
          onChoose={(route) => {
            setComparing(false);
            setProvider(route.provider);
            setCountryId(route.country_id);
            setServiceId(route.service_id);
          }}
        />
      ) : null}
      <Dialog
        open={priceChoice !== null}
        onOpenChange={(next) => !next && setPriceChoice(null)}
        title={priceChoice?.maxPrice != null ? "Above your max price" : "The price has changed"}
        footer={
          <>
            <Button variant="outline" onClick={() => setPriceChoice(null)}>
              Cancel
            </Button>
            <Button
              data-testid="sms-buy-at-new-price"
              onClick={() => {
                const choice = priceChoice;
                setPriceChoice(null);
                if (choice) purchase(choice.price, choice.price);
              }}
            >
              Buy at {naira(priceChoice?.price ?? 0)}
            </Button>
          </>
        }
      >
        <p className="text-sm" data-testid="sms-price-choice">
          {priceChoice?.maxPrice != null
            ? `This number now costs ${naira(priceChoice.price)}, above your maximum of ${naira(priceChoice.maxPrice)}.`
            : `This number now costs ${naira(priceChoice?.price ?? 0)}.`}{" "}
          Nothing was charged. Buy it at the new price, or cancel.
        </p>
      </Dialog>
    </Card>
  );
}
