import { naira } from "./api";
import { fieldsOf } from "./readable";

/**
 * The operator settings as forms (issue 28): each number a labelled field with its unit and bounds, shown in the unit
 * a person thinks in (markups in %, polling in seconds) and stored as the server's schema wants it (fractions,
 * milliseconds). The server's own schemas (schema/settings.ts) still validate every save; these bounds only stop the
 * obvious typo before a round trip. Pure functions, tested in setting-forms.test.ts.
 */

export interface NumberField {
  key: string;
  label: string;
  unit: string;
  min?: number;
  max?: number;
  step?: number;
  /** Shown = stored × scale (0.5 stored is 50 %; 6000 ms stored is 6 s). */
  scale?: number;
  integer?: boolean;
  optional?: boolean;
}

export interface NumberForm {
  title: string;
  fields: NumberField[];
  /** One sentence saying what the values mean, from the values as stored. */
  preview: (value: Record<string, number | undefined>) => string;
}

const n = (v: number | undefined) => (v === undefined ? "—" : v.toLocaleString("en-NG", { maximumFractionDigits: 2 }));

export const NUMBER_FORMS: Record<string, NumberForm> = {
  exchange_rate: {
    title: "Exchange rate for prices",
    fields: [{ key: "rate", label: "Naira per US dollar", unit: "₦ per US$", min: 1, step: 0.01 }],
    preview: (v) => `An upstream cost of US$1.00 is priced at ${naira(v.rate ?? 0)} before the markup.`,
  },
  costs: {
    title: "Markups",
    fields: [
      { key: "low_cost", label: "Markup on SMS up to ₦1,000", unit: "%", min: 0, max: 1000, step: 0.1, scale: 100 },
      { key: "high_cost", label: "Markup on SMS above ₦1,000", unit: "%", min: 0, max: 1000, step: 0.1, scale: 100 },
      { key: "rent_cost", label: "Markup on rentals", unit: "%", min: 0, max: 1000, step: 0.1, scale: 100 },
    ],
    preview: (v) =>
      `A ₦800 SMS sells at ${naira(800 * (1 + (v.low_cost ?? 0)))}; a ₦2,000 one at ${naira(2000 * (1 + (v.high_cost ?? 0)))}; a ₦5,000 rental at ${naira(5000 * (1 + (v.rent_cost ?? 0)))}.`,
  },
  rate_settings: {
    title: "Funding",
    fields: [
      { key: "cryptomin", label: "Smallest crypto deposit", unit: "US$", min: 0.01, step: 0.01 },
      { key: "rate", label: "Crypto deposits credited at", unit: "₦ per US$", min: 1, step: 0.01 },
      { key: "squadmin", label: "Smallest card deposit", unit: "₦", min: 1, step: 1 },
    ],
    preview: (v) =>
      `Crypto from US$${n(v.cryptomin)}, credited at ${naira(v.rate ?? 0)} per US$ (US$10 → ${naira(10 * (v.rate ?? 0))}); card from ${naira(v.squadmin ?? 0)}.`,
  },
  approval_threshold: {
    title: "Second-operator approval",
    fields: [{ key: "naira", label: "Manual credits and debits above this wait for a second operator", unit: "₦", min: 0, max: 10_000_000, step: 1 }],
    // Decision 035: a change of this setting itself waits for a second operator (the server answers 202).
    preview: (v) => `A manual credit or debit above ${naira(v.naira ?? 0)} takes effect only when another operator approves it; changing this figure needs one too.`,
  },
  withdrawals: {
    title: "Cash out (decision 071)",
    fields: [
      { key: "minimum_naira", label: "Smallest withdrawal", unit: "₦", min: 1, step: 1 },
      { key: "fee_naira", label: "Fee per withdrawal", unit: "₦", min: 0, step: 1 },
      { key: "per_transaction_naira", label: "Largest single withdrawal", unit: "₦", min: 1, step: 1 },
      { key: "daily_naira", label: "Withdrawals per Lagos day, at most", unit: "₦", min: 1, step: 1 },
      { key: "daily_count", label: "Withdrawals per day, at most", unit: "times", min: 1, step: 1, integer: true },
      { key: "approval_above_naira", label: "Withdrawals above this wait for an operator", unit: "₦", min: 0, step: 1 },
      { key: "cooling_hours", label: "Cooling period after a new bank account or device", unit: "hours", min: 0, max: 720, step: 0.5 },
      { key: "card_chargeback_days", label: "Card deposits withdrawable after", unit: "days", min: 0, max: 365, step: 1, integer: true },
    ],
    preview: (v) =>
      `From ${naira(v.minimum_naira ?? 0)} to ${naira(v.per_transaction_naira ?? 0)} a time (fee ${naira(v.fee_naira ?? 0)}), ${naira(v.daily_naira ?? 0)} and ${n(v.daily_count)} a day; above ${naira(v.approval_above_naira ?? 0)} an operator approves; ${n(v.cooling_hours)} hours of cooling.`,
  },
  referral_reward_percent: {
    title: "Referral reward",
    fields: [{ key: "percent", label: "Share of the referred customer's first deposit", unit: "%", min: 0, max: 100, step: 0.1 }],
    preview: (v) => (v.percent ? `A referred first deposit of ₦10,000 pays the referrer ${naira((10_000 * (v.percent ?? 0)) / 100)}.` : "No referral reward is paid."),
  },
  reseller_markups: {
    title: "Resellers' markups",
    fields: [{ key: "max_percent", label: "Highest markup a reseller may set", unit: "%", min: 0, max: 1000, step: 1 }],
    preview: (v) => `A reseller may sell a ₦1,000 number to its customers for at most ${naira(1000 * (1 + (v.max_percent ?? 0) / 100))}.`,
  },
  developer_ref: {
    title: "Developers' ref share",
    fields: [{ key: "percent", label: "Share of an API customer's kept order (our price) paid to the developer named in `ref`", unit: "%", min: 0, max: 50, step: 0.1 }],
    preview: (v) => (v.percent ? `A kept ₦1,000 order bought with a developer's ref pays the developer ${naira((1000 * (v.percent ?? 0)) / 100)}.` : "No developer share is paid."),
  },
  sms_poll: {
    title: "SMS polling",
    fields: [
      { key: "interval_ms", label: "Check for the code every", unit: "s", min: 0.2, max: 600, step: 0.1, scale: 1 / 1000 },
      { key: "max_attempts", label: "Check at most", unit: "times", min: 1, max: 100, step: 1, integer: true },
    ],
    preview: (v) => {
      const seconds = (v.interval_ms ?? 0) / 1000;
      return `Check every ${n(seconds)} s, up to ${n(v.max_attempts)} times: a number is held about ${n(seconds * (v.max_attempts ?? 0))} s before it is refunded.`;
    },
  },
  upstream_rates: {
    title: "Upstream currencies",
    fields: [
      { key: "RUB", label: "Russian roubles per US$", unit: "RUB per US$", min: 0.0001, step: 0.0001, optional: true },
      { key: "EUR", label: "Euros per US$", unit: "EUR per US$", min: 0.0001, step: 0.0001, optional: true },
    ],
    preview: (v) => `A 100 RUB upstream price is US$${n(v.RUB ? 100 / v.RUB : undefined)}; an offer in a currency left empty is refused.`,
  },
};

/** The value as the form shows it: each field in its shown unit, as text for an <input>. */
export function toFormValues(form: NumberForm, value: unknown): Record<string, string> {
  const fields = fieldsOf(value);
  return Object.fromEntries(
    form.fields.map((f) => {
      const stored = fields.get(f.key);
      if (typeof stored !== "number") return [f.key, ""];
      return [f.key, String(Math.round(stored * (f.scale ?? 1) * 1e6) / 1e6)];
    }),
  );
}

/** The form's text back to the stored value, or the first field a person must fix (with its bounds in words). */
export function fromFormValues(form: NumberForm, shown: Record<string, string>): { value: Record<string, number> } | { error: string; field: string } {
  const out: Record<string, number> = {};
  for (const f of form.fields) {
    const text = (shown[f.key] ?? "").trim();
    if (text === "") {
      if (f.optional) continue;
      return { error: `${f.label}: enter a number (${f.unit}).`, field: f.key };
    }
    const v = Number(text);
    if (!Number.isFinite(v)) return { error: `${f.label}: “${text}” is not a number.`, field: f.key };
    if (f.min !== undefined && v < f.min) return { error: `${f.label}: at least ${f.min} ${f.unit}.`, field: f.key };
    if (f.max !== undefined && v > f.max) return { error: `${f.label}: at most ${f.max} ${f.unit}.`, field: f.key };
    if (f.integer && !Number.isInteger(v)) return { error: `${f.label}: a whole number of ${f.unit}.`, field: f.key };
    const stored = v / (f.scale ?? 1);
    out[f.key] = f.scale && f.scale < 1 ? Math.round(stored) : Math.round(stored * 1e9) / 1e9;
  }
  return { value: out };
}

/** The ad colours (the carousel's own list, components/dashboard/ads-carousel.tsx) by the names a person uses. */
export const AD_COLOUR_NAMES: Record<string, string> = {
  "bg-emerald-600": "Emerald green",
  "bg-sky-700": "Sky blue",
  "bg-violet-700": "Violet",
  "bg-blue-700": "Blue",
  "bg-rose-600": "Rose red",
  "bg-amber-600": "Amber",
  "bg-slate-800": "Charcoal",
  "bg-teal-700": "Teal",
  "bg-indigo-700": "Indigo",
};

/** The swatch colour of each palette entry (so the console needs none of the customer's classes to draw it). */
export const AD_COLOUR_SWATCH: Record<string, string> = {
  "bg-emerald-600": "#059669",
  "bg-sky-700": "#0369a1",
  "bg-violet-700": "#6d28d9",
  "bg-blue-700": "#1d4ed8",
  "bg-rose-600": "#e11d48",
  "bg-amber-600": "#d97706",
  "bg-slate-800": "#1e293b",
  "bg-teal-700": "#0f766e",
  "bg-indigo-700": "#4338ca",
};
