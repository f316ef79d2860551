import { z } from "zod";

/** Operator settings: one zod schema per key, the defaults a fresh install is seeded with. */

const discountTierSchema = z.object({
  icon: z.string(),
  text: z.string(),
  indicator: z.string(),
  /** Discount in percent (2 means 2%). */
  percentage: z.number().min(0).max(100),
  /** Minimum total deposited in naira. A tier applies when the total is at least its threshold
   * (NOTE: the spec's table says "above 60,000"; we read "at least" so exactly 60,000 earns Silver, see docs/decisions). */
  threshold: z.number().min(0),
});
export type DiscountTier = z.infer<typeof discountTierSchema>;

/**
 * Issue 46 (docs/decisions/074): a reseller's wholesale tiers, earned by its last-30-day spend (its own and its
 * sub-accounts' kept purchases and rentals, at our price). The shape of a discount tier's figures (threshold in naira,
 * percentage off); a reseller gets the better of its deposit tier and its wholesale tier, never both.
 */
const wholesaleTierSchema = z.object({
  name: z.string().trim().min(1, "Name each wholesale tier.").max(40, "A tier's name is at most 40 characters."),
  /** Minimum 30-day spend in naira. */
  threshold: z.number().min(0, "A threshold is at least ₦0.").max(1_000_000_000, "A threshold is at most ₦1,000,000,000."),
  /**
   * Discount in percent of the price. At most 50: every price is the upstream cost plus a markup of 30-50% (the
   * `costs` setting), so a larger discount would sell below cost.
   */
  percentage: z.number().min(0, "A discount is at least 0%.").max(50, "A wholesale discount is at most 50%."),
});
export type WholesaleTier = z.infer<typeof wholesaleTierSchema>;

const wholesaleTiersSchema = z
  .array(wholesaleTierSchema)
  .min(1, "List at least one wholesale tier.")
  .max(20, "At most 20 wholesale tiers.")
  .superRefine((tiers, ctx) => {
    if (!tiers.some((t) => t.threshold === 0)) ctx.addIssue({ code: "custom", message: "One wholesale tier starts at ₦0 (the tier every reseller starts on)." });
    const sorted = [...tiers].sort((a, b) => a.threshold - b.threshold);
    for (let i = 1; i < sorted.length; i++) {
      if (sorted[i].threshold === sorted[i - 1].threshold) ctx.addIssue({ code: "custom", message: `Two wholesale tiers start at ₦${sorted[i].threshold}: each needs its own threshold.` });
      else if (sorted[i].percentage < sorted[i - 1].percentage) {
        ctx.addIssue({ code: "custom", message: `${sorted[i].name} needs more spend than ${sorted[i - 1].name} but gives less off: a higher tier's discount is at least the one below.` });
      }
    }
    if (new Set(tiers.map((t) => t.name.trim().toLowerCase())).size !== tiers.length) ctx.addIssue({ code: "custom", message: "Each wholesale tier needs its own name." });
  });

export const settingSchemas = {
  /** Naira per US dollar applied to upstream SMS and rental costs (pinned to USD). */
  exchange_rate: z.object({ rate: z.number().positive() }),
  /** Markups as fractions: low_cost when the base is at most ₦1000, high_cost above; rent_cost for rentals. */
  costs: z.object({ low_cost: z.number().min(0), high_cost: z.number().min(0), rent_cost: z.number().min(0) }),
  /** Funding: crypto minimum in USD, the naira per USD paid for crypto deposits, the card minimum in naira. */
  rate_settings: z.object({ cryptomin: z.number().positive(), rate: z.number().positive(), squadmin: z.number().positive() }),
  tiers: z.array(discountTierSchema).min(1),
  links: z.array(z.object({ id: z.number().optional(), name: z.string().optional(), link: z.string().url() })),
  ads: z.array(
    z.object({
      id: z.number(),
      // An image the dashboard can load: a file the app serves (web/public, e.g. /ads/whatsapp.svg) or an https
      // address. Seeded relative paths once pointed nowhere (issue 19).
      url: z.string().regex(/^(\/(?!\/)\S+|https:\/\/\S+)$/, "An ad image is a path on this site (/ads/offer.svg) or an https:// address."),
      link: z.string(),
      content: z.string(),
      bg: z.string(),
    }),
  ),
  /** Percent of a referred customer's first confirmed deposit paid to the referrer. */
  referral_reward_percent: z.object({ percent: z.number().min(0).max(100) }),
  /**
   * Issue 46 (docs/decisions/072): the highest markup a reseller may put on its sub-accounts' purchases, in percent of
   * its own price (flat or per service); above it the markup is refused, so a bot cannot sell a ₦500 number for ₦50,000.
   */
  reseller_markups: z.object({ max_percent: z.number().min(0).max(1000) }),
  /**
   * Issue 46 (docs/decisions/075): the developer's share of an API customer's kept order bought with its `ref`, in
   * percent of our price (before any reseller's markup), paid from our revenue. At most 50: the share is our cost.
   */
  developer_ref: z.object({ percent: z.number().min(0, "the share is 0% or more").max(50, "the share is at most 50%") }),
  /** Issue 46 (decision 074): resellers' wholesale tiers by 30-day spend; shown publicly (GET /api/wholesale-tiers). */
  wholesale_tiers: wholesaleTiersSchema,
  /** Receive-SMS polling: a tick every interval_ms, at most max_attempts polls. */
  sms_poll: z.object({ interval_ms: z.number().int().min(200), max_attempts: z.number().int().min(1).max(100) }),
  /**
   * Units of an upstream currency per US dollar (sms-man prices in the account's currency: RUB, USD or EUR). An offer
   * or rental priced in a currency without a rate here is refused, never read as dollars.
   */
  upstream_rates: z.object({ RUB: z.number().positive().optional(), EUR: z.number().positive().optional() }),
  /**
   * Plausibility of an SMS offer before it is sold: the customer's price before any discount (naira) must be at most
   * the service's ceiling (service_ceilings["<provider>:<serviceId>"], else ceiling_naira), and the upstream cost may
   * not move more than max_jump times away (up or down) from the last accepted cost of that offer.
   */
  sms_price_guard: z.object({
    ceiling_naira: z.number().positive(),
    service_ceilings: z.record(z.string(), z.number().positive()),
    max_jump: z.number().min(1),
  }),
  /** Upstream health: a provider whose balance there (in US dollars) is below its floor is hidden from customers. */
  upstream_floors: z.record(z.string(), z.number().min(0)),
  /**
   * Issue 32: which upstreams serve each provider customers see (Swift, Dynamic), in the order they are tried:
   * `upstreams` for every country, `countries["<our country id>"]` where a country needs another order. The first
   * listed is tried first unless routing has learned a better one; a down, sold-out, full or below-floor upstream
   * passes the purchase to the next at the price the customer was charged or lower. Upstreams: daisysms, smsman,
   * herosms, grizzly (one without a key is skipped).
   */
  sms_routes: z.record(
    z.string(),
    z.object({
      upstreams: z.array(z.enum(["daisysms", "smsman", "herosms", "grizzly"])).min(1, "List at least one upstream."),
      countries: z.record(z.string(), z.array(z.enum(["daisysms", "smsman", "herosms", "grizzly"])).min(1, "List at least one upstream.")).optional(),
    }),
  ),
  /**
   * Issue 30: activations one account of an upstream may hold at once, where ours differs from the documented limit
   * (DaisySMS documents 20; support can raise it). Keyed by upstream; null: no limit.
   */
  upstream_slot_limits: z.record(z.string(), z.number().int().min(0).nullable()),
  /**
   * Issue 33 (ASVS 5.0 2.3.5): an operator's manual credit or debit of MORE than this many naira takes effect only once
   * a second operator approves it in the console. Changing this setting itself needs a second operator too.
   */
  approval_threshold: z.object({ naira: z.number().min(0).max(10_000_000) }),
  /**
   * Issue 48 (decision 070), the Telegram bot: a money action in the chat above `confirm_above_naira` needs a fresh
   * confirmation in the web app (step-up) or a TOTP code sent in the chat; the link ends when the session that made it
   * is revoked and/or when the password changes; each chat may send this many updates a minute (more are ignored).
   */
  telegram_bot: z.object({
    confirm_above_naira: z.number().min(0).max(10_000_000),
    unlink_on_session_revoked: z.boolean(),
    unlink_on_password_change: z.boolean(),
    updates_per_minute: z.number().int().min(1).max(600),
  }),
  /**
   * Issue 45 (docs/decisions/071): cash out. Naira amounts: the smallest withdrawal, the fee (0 allowed, told before the
   * click), the caps per withdrawal and per Lagos day with the day's count, and the size above which an operator must
   * approve. cooling_hours: how long a new payout account or a sign-in from a new device waits. card_chargeback_days:
   * how old a card deposit must be before it may be withdrawn.
   */
  withdrawals: z.object({
    minimum_naira: z.number().min(1),
    fee_naira: z.number().min(0),
    per_transaction_naira: z.number().positive(),
    daily_naira: z.number().positive(),
    daily_count: z.number().int().min(1),
    approval_above_naira: z.number().min(0),
    cooling_hours: z.number().min(0).max(720),
    card_chargeback_days: z.number().int().min(0).max(365),
    /**
     * Issue 45: per-tier caps, by the discount tier's name (the tiers setting: a tier is earned by total deposited).
     * A tier not listed has per_transaction_naira and daily_naira above; a cap here never raises them.
     */
    tier_caps: z.record(z.string(), z.object({ per_transaction_naira: z.number().positive(), daily_naira: z.number().positive() })).optional(),
  }),
} as const;

export type SettingKey = keyof typeof settingSchemas;
export type SettingValue<K extends SettingKey> = z.infer<(typeof settingSchemas)[K]>;

export const DEFAULT_TIERS: DiscountTier[] = [
  { icon: "🥉", text: "Bronze", indicator: "Starter tier", percentage: 0, threshold: 0 },
  { icon: "🥈", text: "Silver", indicator: "2% off every purchase", percentage: 2, threshold: 60_000 },
  { icon: "🥇", text: "Gold", indicator: "3% off every purchase", percentage: 3, threshold: 250_000 },
  { icon: "💎", text: "Platinum", indicator: "5% off every purchase", percentage: 5, threshold: 550_000 },
  { icon: "💠", text: "Diamond", indicator: "7% off every purchase", percentage: 7, threshold: 1_000_000 },
  { icon: "👑", text: "Elite", indicator: "10% off every purchase", percentage: 10, threshold: 2_000_000 },
];

export const DEFAULT_WHOLESALE_TIERS: WholesaleTier[] = [
  { name: "Partner", threshold: 0, percentage: 0 },
  { name: "Wholesale 5", threshold: 250_000, percentage: 5 },
  { name: "Wholesale 10", threshold: 1_000_000, percentage: 10 },
  { name: "Wholesale 15", threshold: 5_000_000, percentage: 15 },
];

export const SETTING_DEFAULTS: { [K in SettingKey]: SettingValue<K> } = {
  exchange_rate: { rate: 1600 },
  costs: { low_cost: 0.5, high_cost: 0.3, rent_cost: 0.4 },
  rate_settings: { cryptomin: 5, rate: 1550, squadmin: 1000 },
  tiers: DEFAULT_TIERS,
  links: [
    { id: 1, name: "Community channel", link: "https://t.me/virtualnumbers_ng" },
    { id: 2, name: "Support", link: "https://wa.me/2348000000000" },
  ],
  ads: [
    { id: 1, url: "/ads/whatsapp.svg", link: "/#/sms/1", content: "WhatsApp numbers from ₦500 — codes in seconds", bg: "bg-emerald-600" },
    { id: 2, url: "/ads/rent.svg", link: "/#/number/1", content: "Rent a number for a day, a week or a month", bg: "bg-sky-700" },
    { id: 3, url: "/ads/crypto.svg", link: "/#/payment/1", content: "Fund your wallet with USDT, BTC, ETH or SOL", bg: "bg-violet-700" },
  ],
  referral_reward_percent: { percent: 0 },
  reseller_markups: { max_percent: 100 },
  developer_ref: { percent: 5 },
  // The anchors' wholesale partner APIs give 5-15% off; a reseller starts at 0% and earns these by 30-day spend.
  wholesale_tiers: DEFAULT_WHOLESALE_TIERS,
  sms_poll: { interval_ms: 6000, max_attempts: 15 },
  // Roughly the market in late 2026; the operator keeps them current (npm run admin -- set upstream_rates '{...}').
  upstream_rates: { RUB: 90, EUR: 0.92 },
  sms_price_guard: { ceiling_naira: 50_000, service_ceilings: {}, max_jump: 3 },
  upstream_floors: { Swift: 2, Dynamic: 2, "Dynamic-rent": 2, herosms: 2, grizzly: 2 },
  // Each provider's own upstream first, then the SMS-Activate-family fallbacks: an upstream without a key is passed over
  // (services/sms/routing.ts), so failover starts the day HEROSMS_API_KEY or GRIZZLY_API_KEY is set, and the sandbox
  // (every upstream simulated) shows it. The two primaries do not stand in for each other: each is what the other
  // provider sells, a tap away in the same catalogue (decision 064).
  sms_routes: { Swift: { upstreams: ["daisysms", "herosms", "grizzly"] }, Dynamic: { upstreams: ["smsman", "herosms", "grizzly"] } },
  upstream_slot_limits: {},
  approval_threshold: { naira: 50_000 },
  telegram_bot: { confirm_above_naira: 20_000, unlink_on_session_revoked: true, unlink_on_password_change: true, updates_per_minute: 30 },
  withdrawals: {
    minimum_naira: 1_000,
    fee_naira: 0,
    per_transaction_naira: 200_000,
    daily_naira: 500_000,
    daily_count: 3,
    approval_above_naira: 100_000,
    cooling_hours: 24,
    card_chargeback_days: 30,
    // A new wallet (Bronze: under ₦60,000 deposited) takes out less at a time and a day; Gold and above the global caps.
    tier_caps: {
      Bronze: { per_transaction_naira: 50_000, daily_naira: 100_000 },
      Silver: { per_transaction_naira: 100_000, daily_naira: 250_000 },
    },
  },
};


// Answers built from settings (plain types: `import type` costs the web nothing).

/** GET /api/links: the operator's links (the first is the chat channel, the second the dashboard tile). */
export type SiteLink = SettingValue<"links">[number];
/** GET /api/ads: `{ data: Ad[] }`. */
export type Ad = SettingValue<"ads">[number];

/** GET /api/level: a one-item list with the caller's total deposited (naira) and the tier it earns. */
export interface LevelRow {
  total_deposited: number;
  tier: DiscountTier;
}

/**
 * GET /api/get-rate: a one-item list. cryptomin in USD, squadmin in naira; `rate` (= exchange_rate) is the naira per USD
 * prices are computed with, `crypto_rate` the naira per USD a crypto deposit is credited at.
 */
export interface RateSettingsRow {
  cryptomin: number;
  squadmin: number;
  rate: number;
  exchange_rate: number;
  crypto_rate: number;
}
