import { useEffect, useEffectEvent, useMemo, useRef, useState } from "react";
import { toast } from "../../lib/toast";
import { naira } from "../../../schema/money";
import { ApiError } from "../../api/client";
import { NO_RENT_STOCK_MESSAGE } from "../../../schema/constants";
import type { RentalView, RentQuoteRequest } from "../../../schema/rentals";
import { useRentCountries, useRentNumber, useRentStock } from "../../api/rentals";
import { useBalance } from "../../api/wallet";
import { cn } from "../../lib/cn";
import { Button } from "../ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "../ui/card";
import { Field } from "../ui/field";
import { Input } from "../ui/input";
import { Select } from "../ui/select";
import { Spinner } from "../ui/spinner";
import { formatRentChoice, isRentUnit, periodOptions, RENT_UNIT_OPTIONS } from "./periods";
import { ShortfallNotice, shortfallFrom, shortfallNaira, shortfallText } from "../payment/shortfall";

/** Spec section 9: stock lookup delay 1 s; no-stock message about 4 s with the fields cleared after 3 s; panel 8 s. */
export const LOOKUP_DELAY_MS = 1000;
export const NO_STOCK_VISIBLE_MS = 4000;
export const NO_STOCK_CLEAR_MS = 3000;
export const PRICE_PANEL_AFTER_SUBMIT_MS = 8000;

/**
 * The spec's rental form: Country, Duration unit, then the period (only after a unit), read-only Stock and Price
 * from the server's delayed lookup, the Cost / Wallet summary, and Get Number.
 */
export function RentForm({ onRented }: { onRented: (rental: RentalView) => void }) {
  const countries = useRentCountries();
  const balance = useBalance();
  const rent = useRentNumber();
  const [countryId, setCountryId] = useState("");
  const [unit, setUnit] = useState("");
  const [period, setPeriod] = useState("");
  const [lookup, setLookup] = useState<RentQuoteRequest | null>(null);
  // Issue 49: the customer asked for a number that can be extended (an upstream whose documents define extension).
  const [extendable, setExtendable] = useState(false);
  const [noStock, setNoStock] = useState(false);
  // The summary outlives the form's reset after a submit: it hides 8 s later.
  const [summaryCost, setSummaryCost] = useState<number | null>(null);
  // The server's refusal for want of money (issue 28): what is missing, until the next choice.
  const [shortfall, setShortfall] = useState<number | null>(null);
  const timers = useRef<ReturnType<typeof setTimeout>[]>([]);
  const panelTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const stock = useRentStock(lookup);

  const later = (fn: () => void, ms: number) => {
    timers.current.push(setTimeout(fn, ms));
  };
  useEffect(
    () => () => {
      timers.current.forEach(clearTimeout);
      clearTimeout(panelTimer.current);
    },
    [],
  );

  /** A new choice by the customer: the old cost no longer applies (and a pending 8 s hide must not hit the new one). */
  const choose = (setter: (v: string) => void) => (value: string) => {
    clearTimeout(panelTimer.current);
    setSummaryCost(null);
    setShortfall(null);
    setExtendable(false);
    setter(value);
  };

  // Any change to the choice: forget the old figures and look again after 1 s of quiet.
  useEffect(() => {
    setLookup(null);
    if (!countryId || !isRentUnit(unit) || !period) return;
    const timer = setTimeout(() => setLookup({ countryId, duration: unit, period: Number(period), ...(extendable ? { extendable: true } : {}) }), LOOKUP_DELAY_MS);
    return () => clearTimeout(timer);
  }, [countryId, unit, period, extendable]);

  const limit = stock.data?.data.limits.find((l) => String(l.country_id) === lookup?.countryId) ?? stock.data?.data.limits[0];
  const stockCount = stock.data ? (limit?.count ?? 0) : null;
  const inStock = Boolean(stock.data && stock.data.in_stock !== false && stockCount && stockCount > 0);
  const price = inStock ? (stock.data?.price ?? null) : null;
  // Issue 43: a longer unit covering the same time for less (24 hours vs 1 day), the server's cheapest such quote.
  const cheaper = inStock && price !== null ? (stock.data?.cheaper ?? null) : null;
  const noStockAnswer =
    (stock.data && !inStock) ||
    (stock.error instanceof ApiError && (stock.error.code === "NO_NUMBERS" || stock.error.message === NO_RENT_STOCK_MESSAGE));

  const clearChoice = () => {
    setCountryId("");
    setUnit("");
    setPeriod("");
  };

  const showNoStock = () => {
    setNoStock(true);
    later(clearChoice, NO_STOCK_CLEAR_MS);
    later(() => setNoStock(false), NO_STOCK_VISIBLE_MS);
  };

  // React to each answer once: a price opens the summary; no stock shows the red box. showNoStock is also used by the
  // submit handler; the effect reaches it through an effect event so its fresh identity each render is no dependency.
  const showNoStockForAnswer = useEffectEvent(showNoStock);
  const answered = useRef<unknown>(null);
  useEffect(() => {
    const answer = stock.data ?? stock.error;
    if (!answer || answered.current === answer) return;
    answered.current = answer;
    if (price !== null) setSummaryCost(price);
    else if (noStockAnswer) showNoStockForAnswer();
    else if (stock.error) toast.error(stock.error.message);
  }, [stock.data, stock.error, price, noStockAnswer]);

  const wallet = balance.data;
  const tooExpensive = summaryCost !== null && wallet !== undefined && summaryCost > wallet;

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    if (!countryId || !isRentUnit(unit) || !period || price === null) {
      toast.error("Choose a country, a duration and a period, and wait for the price.");
      return;
    }
    if (wallet !== undefined && price > wallet) {
      const missing = shortfallNaira(price, wallet);
      setShortfall(missing);
      toast.error(shortfallText(missing));
      return;
    }
    rent.mutate(
      { countryId, duration: unit, period: Number(period), price, ...(extendable ? { extendable: true } : {}) },
      {
        onSuccess: (res) => {
          toast.success(`Number ${res.number} rented successfully`);
          if (res.message) toast.info(res.message);
          clearChoice();
          clearTimeout(panelTimer.current);
          panelTimer.current = setTimeout(() => setSummaryCost(null), PRICE_PANEL_AFTER_SUBMIT_MS);
          onRented({ ...res.rental, number: res.rental?.number ?? res.number });
        },
        onError: (err) => {
          if (err instanceof ApiError && err.code === "INSUFFICIENT_BALANCE") {
            const missing = shortfallFrom(err);
            setShortfall(missing);
            toast.error(missing ? shortfallText(missing) : "Insufficient balance");
          }
          else if (err instanceof ApiError && (err.code === "NO_NUMBERS" || err.message === NO_RENT_STOCK_MESSAGE)) showNoStock();
          else {
            toast.error(err.message);
            if (err instanceof ApiError && err.code === "PRICE_CHANGED") void stock.refetch();
          }
        },
      },
    );
  };

  const countryOptions = useMemo(() => (countries.data ?? []).map((c) => ({ value: String(c.id), label: c.title })), [countries.data]);
  const looking = Boolean(countryId && unit && period) && (lookup === null || stock.isFetching);
  const soldOut = !looking && (noStock || (stock.data !== undefined && !inStock && Boolean(countryId && unit && period)));

  return (
    <Card>
      <CardHeader>
        <CardTitle>Rent a number</CardTitle>
      </CardHeader>
      <CardContent className="@container">
        <form onSubmit={submit} className="flex flex-col gap-4" noValidate>
          {/* Where the card is wide (from 42rem) the choices sit side by side (issue 43: the page's width was unused). */}
          <div className="grid gap-4 @2xl:grid-cols-3">
            <Field label="Country" error={countries.isError ? countries.error.message : undefined}>
              {(p) => (
                <Select
                  {...p}
                  searchable
                  searchPlaceholder="Search countries..."
                  options={countryOptions}
                  value={countryId}
                  onValueChange={choose(setCountryId)}
                  loading={countries.isPending}
                  loadingText="Loading countries..."
                  placeholder="Select a country"
                />
              )}
            </Field>
            <Field label="Duration">
              {(p) => (
                <Select
                  {...p}
                  options={RENT_UNIT_OPTIONS}
                  value={unit}
                  onValueChange={choose((v) => {
                    setUnit(v);
                    setPeriod("");
                  })}
                  placeholder="Select a unit"
                />
              )}
            </Field>
            {isRentUnit(unit) ? (
              <Field label="Period">
                {(p) => <Select {...p} options={periodOptions(unit)} value={period} onValueChange={choose(setPeriod)} placeholder={`How many ${unit}s?`} />}
              </Field>
            ) : null}
          </div>
          <div className="grid grid-cols-2 gap-3">
            <Field label="Stock">
              {(p) => <Input {...p} readOnly value={looking ? "Checking..." : stockCount !== null ? String(stockCount) : ""} placeholder="—" />}
            </Field>
            <Field label="Price">
              {(p) => <Input {...p} readOnly value={looking ? "Checking..." : price !== null ? `${naira(price)}` : ""} placeholder="—" />}
            </Field>
          </div>
          {cheaper && !looking ? (
            <div role="status" data-testid="rent-cheaper" className="flex flex-wrap items-center justify-between gap-2 rounded-lg border border-emerald-300 bg-emerald-50 px-3 py-2 text-sm text-emerald-900 dark:border-emerald-800 dark:bg-emerald-950/60 dark:text-emerald-100">
              <span>
                {formatRentChoice(cheaper.duration, cheaper.period)} is {naira(cheaper.price)}, less than {formatRentChoice(unit, Number(period))} at{" "}
                {naira(price ?? 0)}, and lasts at least as long.
              </span>
              <Button
                type="button"
                size="sm"
                variant="outline"
                onClick={() => {
                  choose(setUnit)(cheaper.duration);
                  setPeriod(String(cheaper.period));
                }}
              >
                Rent {formatRentChoice(cheaper.duration, cheaper.period)} instead
              </Button>
            </div>
          ) : null}
          {inStock && price !== null && !looking && stock.data?.extendable !== undefined ? (
            // Issue 49: said before purchase, whether this number can be extended (and renewed) before it ends.
            <div className="flex flex-wrap items-center justify-between gap-2 text-sm text-slate-700 dark:text-slate-200" data-testid="rent-extendable">
              <span>
                {stock.data.extendable
                  ? "This number can be extended before it ends, and renewed automatically."
                  : "This number cannot be extended: rent it for as long as you need it."}
              </span>
              {!stock.data.extendable && stock.data.extendable_offer ? (
                <Button type="button" size="sm" variant="outline" onClick={() => setExtendable(true)} data-testid="rent-extendable-offer">
                  Rent one I can extend: {naira(stock.data.extendable_offer.price)}
                </Button>
              ) : null}
            </div>
          ) : null}
          {noStock ? (
            <div role="alert" className="rounded-lg border border-red-300 bg-red-50 px-4 py-3 text-sm font-medium text-red-700 dark:border-red-900 dark:bg-red-950/60 dark:text-red-300">
              {NO_RENT_STOCK_MESSAGE}
            </div>
          ) : null}
          {summaryCost !== null ? (
            <dl className="grid grid-cols-2 gap-2 rounded-lg border border-slate-200 bg-slate-50 p-3 text-sm dark:border-slate-700 dark:bg-slate-800/60" data-testid="rent-summary">
              <dt className="text-slate-600 dark:text-slate-400">Cost</dt>
              <dd className="text-right font-semibold tabular-nums">{naira(summaryCost)}</dd>
              <dt className="text-slate-600 dark:text-slate-400">Wallet</dt>
              <dd className={cn("text-right font-semibold tabular-nums", tooExpensive && "text-red-600 dark:text-red-400")}>
                {wallet === undefined ? "…" : `${naira(wallet)}`}
              </dd>
            </dl>
          ) : null}
          <Button
            type="submit"
            size="lg"
            disabled={rent.isPending || soldOut}
            aria-disabled={tooExpensive || undefined}
            aria-describedby={soldOut ? "rent-sold-out" : undefined}
            className={cn(tooExpensive && "opacity-50")}
          >
            {rent.isPending ? <Spinner className="h-4 w-4" /> : null}
            Get Number
          </Button>
          {soldOut ? (
            // Issue 28: a sold-out choice disables Get Number and says why, instead of a button that cannot work.
            <p id="rent-sold-out" className="text-xs text-slate-700 dark:text-slate-200" data-testid="rent-sold-out">
              No number is left for this country and duration: choose another country or duration.
            </p>
          ) : null}
          {tooExpensive && summaryCost !== null && wallet !== undefined ? (
            <ShortfallNotice amount={shortfallNaira(summaryCost, wallet)} back="number" />
          ) : shortfall ? (
            <ShortfallNotice amount={shortfall} back="number" />
          ) : null}
        </form>
      </CardContent>
    </Card>
  );
}
