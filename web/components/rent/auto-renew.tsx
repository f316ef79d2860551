import { useEffect, useId, useState } from "react";
import { naira } from "../../../schema/money";
import type { RentalView, RentExtendOption } from "../../../schema/rentals";
import { ApiError } from "../../api/client";
import { useExtendOptions, useSetAutoRenew } from "../../api/rentals";
import { useBalance } from "../../api/wallet";
import { formatDateTime } from "../../lib/format";
import { toast } from "../../lib/toast";
import { priceChoiceFrom } from "../sms/price-choice";
import { fundWalletPath } from "../payment/shortfall";
import { AppLink } from "../layout/app-link";
import { Button, buttonClasses } from "../ui/button";

type AutoRenew = NonNullable<RentalView["auto_renew"]>;

/** Why auto-renew stopped, in the customer's words (the server's `paused`; its toast and e-mail say the same). */
export const PAUSED_TEXT: Record<NonNullable<AutoRenew["paused"]>, string> = {
  price: "Auto-renew paused: the renewal price went up. Turn it on again to agree to the new price.",
  funds: "Auto-renew paused: your wallet did not hold the renewal price. Fund your wallet, then turn it on again.",
  provider: "Auto-renew paused: the number provider would not renew this rental.",
};

/**
 * The wallet is short of the next renewal (the early warning, issue 32): what to add and by when. Null when it holds
 * the price, when auto-renew is off or paused, or while the balance is unknown.
 */
export function unfundedWarning(auto: AutoRenew | null | undefined, balance: number | undefined): { shortBy: number; text: string } | null {
  if (!auto || auto.paused || balance === undefined || balance >= auto.price) return null;
  const shortBy = Math.ceil((auto.price - balance) * 100) / 100;
  const when = auto.renews_at ? ` before ${formatDateTime(auto.renews_at)}` : "";
  return { shortBy, text: `Your wallet is ${naira(shortBy)} short of the next renewal (${naira(auto.price)}). Fund it${when}, or the number ends.` };
}

/**
 * "Renew automatically" for one rental (issue 32, decisions 047/048). Shown only where the upstream documents extension:
 * the same condition as Extend (the server's extend options), so for today's sms-man rentals nothing renders. Turning it
 * on sends the renewal price the screen says (the chosen Extend length's server price); a higher price is the server's
 * 409 PRICE_CHANGED, shown as a question with the new price, never charged without the customer's click. While it is on
 * the screen says the price and when it is charged, why it paused if it did, and warns early when the wallet is short.
 */
export function AutoRenewRental({ rental }: { rental: RentalView }) {
  const options = useExtendOptions(rental.id, rental.status === "active");
  const setAutoRenew = useSetAutoRenew();
  const balance = useBalance();
  const list = options.data?.options ?? [];
  const auto = rental.auto_renew ?? null;
  const [choiceKey, setChoiceKey] = useState<string>("");
  // The server's higher price for the chosen length, awaiting the customer's yes (nothing is on until then).
  const [asked, setAsked] = useState<RentExtendOption | null>(null);
  const switchId = useId();
  const selectId = useId();
  useEffect(() => setAsked(null), [rental.id]);

  if (rental.status !== "active" || list.length === 0) return null;
  const chosen = list.find((o) => `${o.unit}-${o.period}` === choiceKey) ?? list.find((o) => auto && o.unit === auto.unit && o.period === auto.period) ?? list[0];
  const on = Boolean(auto && !auto.paused);
  const busy = setAutoRenew.isPending;

  const turnOn = (option: RentExtendOption) =>
    setAutoRenew.mutate(
      { id: rental.id, choice: { unit: option.unit, period: option.period, price: option.price } },
      {
        onSuccess: () => {
          setAsked(null);
          toast.success(`Auto-renew on: ${option.duration} for ${naira(option.price)} each time`);
        },
        onError: (err) => {
          const moved = priceChoiceFrom(err);
          if (moved) return setAsked({ ...option, price: moved.price });
          toast.error(err instanceof ApiError ? err.message : "Could not turn on auto-renew. Please try again.");
        },
      },
    );
  const turnOff = () =>
    setAutoRenew.mutate(
      { id: rental.id, choice: null },
      { onSuccess: () => toast.success("Auto-renew off"), onError: (err) => toast.error(err.message) },
    );

  const warning = unfundedWarning(auto, balance.data);
  return (
    <div className="flex flex-col gap-2 rounded-lg border border-slate-200 p-3 text-sm dark:border-slate-700" data-testid="auto-renew">
      <div className="flex items-center justify-between gap-3">
        <label htmlFor={switchId} className="font-semibold">
          Renew automatically
        </label>
        <input
          id={switchId}
          type="checkbox"
          role="switch"
          checked={on}
          disabled={busy}
          aria-describedby={`${switchId}-price`}
          onChange={(e) => (e.target.checked ? turnOn(chosen) : turnOff())}
          className="h-5 w-9 cursor-pointer accent-blue-600"
        />
      </div>
      {on && auto ? (
        <p id={`${switchId}-price`} data-testid="auto-renew-price">
          Renews by {auto.duration} for {naira(auto.price)} each time
          {auto.renews_at ? `, next charged ${formatDateTime(auto.renews_at)}` : ""}. Reminders come 24 hours and 1 hour before.
        </p>
      ) : (
        <>
          {list.length > 1 ? (
            <div className="flex items-center gap-2">
              <label htmlFor={selectId}>Renew by</label>
              <select
                id={selectId}
                value={`${chosen.unit}-${chosen.period}`}
                onChange={(e) => {
                  setChoiceKey(e.target.value);
                  setAsked(null);
                }}
                className="rounded-md border border-slate-300 bg-white px-2 py-1 dark:border-slate-600 dark:bg-slate-900"
              >
                {list.map((o) => (
                  <option key={`${o.unit}-${o.period}`} value={`${o.unit}-${o.period}`}>
                    {o.duration} — {naira(o.price)}
                  </option>
                ))}
              </select>
            </div>
          ) : null}
          <p id={`${switchId}-price`} data-testid="auto-renew-price">
            Each renewal charges {naira(chosen.price)} for {chosen.duration} more, 15 minutes before the rental ends.
          </p>
        </>
      )}
      {auto?.paused ? (
        <p role="status" className="text-amber-800 dark:text-amber-300" data-testid="auto-renew-paused">
          {PAUSED_TEXT[auto.paused]}
        </p>
      ) : null}
      {asked ? (
        <div role="alert" className="flex flex-col gap-2 rounded-md border border-amber-300 bg-amber-50 p-2 text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100" data-testid="auto-renew-price-changed">
          <p>
            Each renewal now costs {naira(asked.price)} for {asked.duration}. Turn on auto-renew at this price?
          </p>
          <div className="flex gap-2">
            <Button size="sm" onClick={() => turnOn(asked)} disabled={busy}>
              Renew for {naira(asked.price)}
            </Button>
            <Button size="sm" variant="outline" onClick={() => setAsked(null)} disabled={busy}>
              Not now
            </Button>
          </div>
        </div>
      ) : null}
      {warning ? (
        <div role="alert" className="flex flex-wrap items-center justify-between gap-2 rounded-md border border-amber-300 bg-amber-50 p-2 text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100" data-testid="auto-renew-unfunded">
          <span>{warning.text}</span>
          <AppLink to={fundWalletPath(warning.shortBy)} className={buttonClasses("default", "sm")}>
            Fund wallet
          </AppLink>
        </div>
      ) : null}
    </div>
  );
}
