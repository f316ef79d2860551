import type { Env } from "../config";
import { RENT_CANCEL_WINDOW_MS } from "../../schema/rentals";
import { sandboxMessages } from "./rent-simulator";
import { chargeSandbox, sandboxBalance, setSandboxBalance } from "./sms-activations";
import { countryBySmsActivateNumber, type SandboxCountry } from "./sms-catalogue";

/**
 * The HeroSMS simulator's rent actions (issue 49), written from the SMS-Activate rent protocol's documents, not from
 * our adapter: SMS-Activate's own PHP client (https://sms-activate.org/en/api2) for the actions and their parameters,
 * the protocol's hosts for the replies and words (https://sms-online.pro/docs/api/en/continue_rent_number.html,
 * get_rent_status.html, set_rent_status.html, continue_rent_info.html; https://sms.online/help/api-docs/
 * getContinueRentPrice). What it does, like the documents say:
 *   - getRentServicesAndCountries&rent_time=&country= -> {countries, operators, services: {full: {cost, quant}}, currency: 840};
 *     rent_time is hours, at least 4 (the protocol's default and floor): shorter is an empty services list;
 *   - getRentNumber&service=full&rent_time=&country= -> {"status":"success","phone":{id, endDate, number}}; a country it
 *     does not know is WRONG_COUNTRY, another service than full BAD_SERVICE, too short NO_NUMBERS, our account short
 *     NO_BALANCE (the rental is charged when taken, in dollars);
 *   - getRentStatus&id= -> {"status":"success","quantity","values":{"0":{phoneFrom, text, service, date}}}; STATUS_WAIT_CODE
 *     before the first message, STATUS_CANCEL after a cancel, STATUS_FINISH once finished or over; INVALID_PHONE unknown;
 *   - setRentStatus&id=&status=1 (finish) | 2 (cancel, within 20 minutes and before any message, refunded): ALREADY_FINISH,
 *     ALREADY_CANCEL, CANT_CANCEL, INCORECT_STATUS;
 *   - getContinueRentPriceNumber / continueRentNumber &id=&rent_time=: the price of rent_time more hours, and the
 *     extension itself (charged, endDate moved); RENT_DIE once the rental is over, INVALID_TIME below 4 hours.
 * State lives in D1 (sandbox_state, keys herosms-rent:*). Messages arrive as on the sms-man rent simulator.
 */
export const HEROSMS_RENT_MIN_HOURS = 4;
/** HeroSMS's sandbox rentals cost this many dollars an hour before the country factor, less for long ones. */
const HOURLY_USD = 0.05;

interface HeroRental {
  id: string;
  country: string;
  number: string;
  createdAt: number;
  endsAt: number;
  firstSmsAt: number;
  status: "active" | "cancelled" | "finished";
  charged: number;
}

/** The dollar price of `hours` of a rental in a country (a week costs less per hour than a day, as markets price it). */
export function heroRentCostUsd(country: SandboxCountry, hours: number): number {
  const discount = hours >= 168 ? 0.6 : hours >= 24 ? 0.8 : 1;
  return Math.max(0.05, Math.round(hours * HOURLY_USD * discount * country.costFactor * 100) / 100);
}

const key = (id: string) => `herosms-rent:${id}`;

export async function readHeroRental(env: Env, id: string): Promise<HeroRental | null> {
  if (!/^\d{1,12}$/.test(id)) return null;
  const row = await env.DB.prepare("SELECT value FROM sandbox_state WHERE key = ?").bind(key(id)).first<{ value: string }>();
  return row ? (JSON.parse(row.value) as HeroRental) : null;
}

export async function writeHeroRental(env: Env, rental: HeroRental): Promise<void> {
  await env.DB.prepare("INSERT INTO sandbox_state (key, value, updated_at) VALUES (?1, ?2, ?3) ON CONFLICT(key) DO UPDATE SET value = ?2, updated_at = ?3")
    .bind(key(rental.id), JSON.stringify(rental), Date.now())
    .run();
}

function delayMs(env: Env): number {
  const n = Number(env.SANDBOX_SMS_DELAY_MS ?? "10000");
  return Number.isFinite(n) && n >= 0 ? n : 10_000;
}

/** "2020-01-31 12:01:52", the protocol's endDate (UTC here). */
const protocolDate = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace("T", " ");

const error = (message: string) => Response.json({ status: "error", message });
const phone = (r: HeroRental) => ({ id: Number(r.id), endDate: protocolDate(r.endsAt), number: r.number });

/** A rental still running: active and not past its end. */
function live(r: HeroRental, now: number): boolean {
  return r.status === "active" && now < r.endsAt;
}

function hoursParam(value: string): number | null {
  const n = Number(value);
  return /^\d+$/.test(value) && n >= HEROSMS_RENT_MIN_HOURS ? n : null;
}

/** The rent actions, or null for any other action (the activation simulator answers those). */
export async function heroSmsRentAction(env: Env, action: string, q: (name: string) => string): Promise<Response | null> {
  const now = Date.now();
  switch (action) {
    case "getRentServicesAndCountries": {
      const country = countryBySmsActivateNumber(q("country") || "0");
      if (!country) return error("WRONG_COUNTRY");
      const hours = hoursParam(q("rent_time") || "4");
      const services = hours === null ? {} : { full: { cost: heroRentCostUsd(country, hours), quant: 20 + (Number(country.id) * 7) % 60 } };
      return Response.json({ countries: { "0": Number(q("country") || "0") }, operators: { "0": "any" }, services, currency: 840 });
    }
    case "getRentNumber": {
      const country = countryBySmsActivateNumber(q("country") || "0");
      if (!country) return error("WRONG_COUNTRY");
      if (q("service") !== "full") return error("BAD_SERVICE");
      const hours = hoursParam(q("rent_time") || "4");
      if (hours === null) return error("NO_NUMBERS");
      const cost = heroRentCostUsd(country, hours);
      if (!(await chargeSandbox(env, "herosms", cost))) return error("NO_BALANCE");
      const seq = await env.DB.prepare(
        "INSERT INTO sandbox_state (key, value, updated_at) VALUES ('herosms-rent:seq', '1', ?) ON CONFLICT(key) DO UPDATE SET value = CAST(value AS INTEGER) + 1, updated_at = excluded.updated_at RETURNING value",
      )
        .bind(now)
        .first<{ value: string | number }>();
      const id = String(5_000_000 + Number(seq?.value ?? 1));
      const local = String(Number(id) * 13).padStart(9, "0").slice(-9);
      const rental: HeroRental = {
        id,
        country: q("country") || "0",
        number: `${country.dial}${country.dial === "1" ? `5${local}` : local}`,
        createdAt: now,
        endsAt: now + hours * 3_600_000,
        firstSmsAt: now + delayMs(env),
        status: "active",
        charged: cost,
      };
      await writeHeroRental(env, rental);
      return Response.json({ status: "success", phone: phone(rental) });
    }
    case "getRentStatus": {
      const rental = await readHeroRental(env, q("id"));
      if (!rental) return error("INVALID_PHONE");
      if (rental.status === "cancelled") return error("STATUS_CANCEL");
      const messages = sandboxMessages(rental.id, { firstSmsAt: rental.firstSmsAt, endsAt: rental.endsAt, closedAt: null }, now);
      if (!live(rental, now) && messages.length === 0) return error("STATUS_FINISH");
      if (messages.length === 0) return error("STATUS_WAIT_CODE");
      const values = Object.fromEntries(messages.map((m, i) => [String(i), { phoneFrom: m.sender, text: m.text, service: "full", date: m.date }]));
      return Response.json({ status: "success", quantity: String(messages.length), values });
    }
    case "setRentStatus": {
      const rental = await readHeroRental(env, q("id"));
      if (!rental) return error("INVALID_PHONE");
      const status = q("status");
      if (status !== "1" && status !== "2") return error("INCORECT_STATUS");
      if (rental.status === "cancelled") return error("ALREADY_CANCEL");
      if (rental.status === "finished" || now >= rental.endsAt) return error("ALREADY_FINISH");
      if (status === "1") {
        await writeHeroRental(env, { ...rental, status: "finished", endsAt: now });
        return Response.json({ status: "success" });
      }
      const hasSms = now >= rental.firstSmsAt;
      if (hasSms || now - rental.createdAt > RENT_CANCEL_WINDOW_MS) return error("CANT_CANCEL");
      await writeHeroRental(env, { ...rental, status: "cancelled" });
      await setSandboxBalance(env, "herosms", (await sandboxBalance(env, "herosms")) + rental.charged);
      return Response.json({ status: "success" });
    }
    case "getContinueRentPriceNumber":
    case "continueRentNumber": {
      const rental = await readHeroRental(env, q("id"));
      if (!rental) return error("INVALID_PHONE");
      if (!live(rental, now)) return error("RENT_DIE");
      const hours = hoursParam(q("rent_time"));
      if (hours === null) return error("INVALID_TIME");
      const country = countryBySmsActivateNumber(rental.country)!;
      const cost = heroRentCostUsd(country, hours);
      if (action === "getContinueRentPriceNumber") return Response.json({ status: "success", price: cost.toFixed(2) });
      if (!(await chargeSandbox(env, "herosms", cost))) return error("NO_BALANCE");
      const extended = { ...rental, endsAt: rental.endsAt + hours * 3_600_000, charged: rental.charged + cost };
      await writeHeroRental(env, extended);
      return Response.json({ status: "success", phone: phone(extended) });
    }
    default:
      return null;
  }
}
