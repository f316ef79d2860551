import type { SmsProviderName } from "../../../schema/constants";
import type { SmsNumberChoiceInput, SmsNumberChoices } from "../../../schema/sms";
import { AppError } from "../../lib/errors";
import { choiceSurchargePercent, isEmptyChoice, type NumberChoice, type NumberChoiceSupport, type SmsProvider } from "../../providers/sms/types";
import { PRIMARY_UPSTREAM, upstreamAccountKeys, type SmsUpstream } from "../../providers/sms/upstreams";
import { providerSetFor, type SmsDeps } from "../kernel";
import { configuredUpstreams } from "./routing";
import { healthStatuses, upstreamHealthKey } from "./upstream-health";

/**
 * Choosing the number (issue 49): a carrier and area codes where DaisySMS documents them, an operator where the
 * SMS-Activate protocol does (the adapters' `numberChoices`, from the profiles). What a provider and country offer is
 * the union of what the upstreams its route may use document there (the operator's sms_routes, the primary when
 * nothing is set, an upstream without a key left out): a kind no upstream of the route documents is not offered at all.
 * A purchase with a choice is priced with the documented surcharge (the highest of the upstreams that could serve it,
 * so any of them serves within the order's price) and routed only to upstreams that honour it (routing.ts); one that
 * none of them can honour is refused here, before anything is written or debited.
 */

/** The customer's choice as the upstreams' own parameters take it: lists deduplicated, "any" operator as none. */
export function numberChoiceOf(input: SmsNumberChoiceInput): NumberChoice {
  const choice: NumberChoice = {};
  if (input.carriers?.length) choice.carriers = [...new Set(input.carriers)];
  if (input.areas?.length) choice.areas = [...new Set(input.areas)];
  if (input.operator && input.operator !== "any") choice.operator = input.operator;
  return choice;
}

/** The number choice an order was bought with (sms_orders.number_choice), undefined for any number. */
export function orderChoice(order: { numberChoice?: string | null }): NumberChoice | undefined {
  if (!order.numberChoice) return undefined;
  try {
    const parsed = JSON.parse(order.numberChoice) as NumberChoice;
    return isEmptyChoice(parsed) ? undefined : parsed;
  } catch {
    return undefined;
  }
}

interface RouteUpstream {
  upstream: SmsUpstream;
  support: NumberChoiceSupport | undefined;
}

/** The upstreams the provider's route may use for this customer and country, with what each documents. */
async function routeUpstreams(deps: SmsDeps, userId: string, provider: SmsProviderName, countryId: string): Promise<RouteUpstream[]> {
  // The customer's provider set (a sandbox account's: the simulators' keys), as routing reads it.
  const { mode } = providerSetFor(deps.providerSet, userId);
  const health = await healthStatuses(deps.db);
  const out: RouteUpstream[] = [];
  for (const upstream of await configuredUpstreams(deps.db, provider, countryId)) {
    const accounts = Math.max(upstreamAccountKeys(deps.env, upstream, mode).length, upstream === PRIMARY_UPSTREAM[provider] ? 1 : 0);
    // Not configured, or every account below its balance floor: routing would pass it over, so it honours nothing.
    if (accounts === 0 || Array.from({ length: accounts }, (_, a) => health.get(upstreamHealthKey(upstream, a))).every((h) => h === "low")) continue;
    const adapter: SmsProvider = deps.provider(provider, userId, { upstream, account: 0 });
    out.push({ upstream, support: adapter.numberChoices });
  }
  return out;
}

/** What a customer may choose for a provider and country: each kind some upstream of the route documents there. */
export async function numberChoicesFor(deps: SmsDeps, userId: string, provider: SmsProviderName, countryId: string): Promise<SmsNumberChoices> {
  const out: SmsNumberChoices = {};
  for (const { support } of await routeUpstreams(deps, userId, provider, countryId)) {
    const carriers = support?.carriers;
    if (carriers && carriers.countries.includes(countryId)) {
      const options = new Map((out.carriers?.options ?? []).map((o) => [o.value, o.label]));
      for (const [value, label] of Object.entries(carriers.values)) options.set(value, label);
      out.carriers = { options: [...options].map(([value, label]) => ({ value, label })), surcharge_percent: Math.max(out.carriers?.surcharge_percent ?? 0, carriers.surchargePercent) };
    }
    const areas = support?.areas;
    if (areas && areas.countries.includes(countryId)) {
      out.areas = { max: Math.max(out.areas?.max ?? 0, areas.max), surcharge_percent: Math.max(out.areas?.surcharge_percent ?? 0, areas.surchargePercent) };
    }
    const operators = support?.operator?.byCountry[countryId];
    if (operators?.length) {
      const all = new Set([...(out.operator?.options ?? []).map((o) => o.value), ...operators]);
      out.operator = { options: [...all].map((value) => ({ value, label: operatorLabel(value) })), surcharge_percent: Math.max(out.operator?.surcharge_percent ?? 0, support!.operator!.surchargePercent) };
    }
  }
  return out;
}

/** An operator's name as people write it (the protocol's codes are lower case). */
function operatorLabel(code: string): string {
  const known: Record<string, string> = { mts: "MTS", tele2: "Tele2", megafon: "MegaFon", beeline: "Beeline", rostelecom: "Rostelecom", kyivstar: "Kyivstar", life: "lifecell", utel: "Utel", vodafone: "Vodafone", activ: "Activ", altel: "Altel" };
  return known[code] ?? code;
}

/**
 * The surcharge (percent) a purchase with this choice is priced with, or the customer's reason why it cannot be had,
 * before anything is written: a value no upstream documents (400), or no upstream of the route able to honour the
 * whole choice in this country (422). No choice: 0.
 */
export async function choiceSurcharge(deps: SmsDeps, userId: string, provider: SmsProviderName, countryId: string, choice: NumberChoice): Promise<number> {
  if (isEmptyChoice(choice)) return 0;
  const route = await routeUpstreams(deps, userId, provider, countryId);
  const offered = await numberChoicesFor(deps, userId, provider, countryId);
  const unknownCarrier = choice.carriers?.find((c) => !offered.carriers?.options.some((o) => o.value === c));
  if (choice.carriers?.length && !offered.carriers) throw cannot("carriers", "Choosing a carrier is not offered for this country and provider.");
  if (unknownCarrier) throw new AppError("VALIDATION_FAILED", `Unknown carrier "${unknownCarrier}": choose ${offered.carriers!.options.map((o) => `${o.value} (${o.label})`).join(", ")}.`, { field: "carriers" });
  if (choice.areas?.length && !offered.areas) throw cannot("areas", "Choosing an area code is not offered for this country and provider.");
  if (choice.areas && offered.areas && choice.areas.length > offered.areas.max) throw new AppError("VALIDATION_FAILED", `Choose at most ${offered.areas.max} area codes.`, { field: "areas" });
  if (choice.operator && !offered.operator) throw cannot("operator", "Choosing an operator is not offered for this country and provider.");
  if (choice.operator && !offered.operator!.options.some((o) => o.value === choice.operator)) {
    throw new AppError("VALIDATION_FAILED", `Unknown operator "${choice.operator}": choose ${offered.operator!.options.map((o) => o.value).join(", ")}.`, { field: "operator" });
  }
  const surcharges = route.map((r) => choiceSurchargePercent(r.support, countryId, choice)).filter((p): p is number => p !== null);
  if (surcharges.length === 0) throw cannot(null, "No provider can honour this combination of carrier, area code and operator here. Nothing was charged.");
  return Math.max(...surcharges);
}

function cannot(field: string | null, message: string): AppError {
  return new AppError("UNPROCESSABLE", message, field ? { field } : {});
}
