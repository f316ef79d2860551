import { hash } from "./sms-catalogue";

/**
 * The sandbox's USA stock by area code and carrier, for the DaisySMS simulator's `carriers` and `areas` (written from
 * https://daisysms.com/docs/api, "Renting a number": `areas=212,718` "will only rent numbers with area codes 212 or
 * 718"; `carriers` takes "tmo" for T-Mobile, "vz" for Verizon, "att" for AT&T, "carriers=tmo,vz will only rent numbers by
 * T-Mobile or Verizon"; each "subject to a 20% price increase"). A few pairs hold no number, so NO_NUMBERS, the page's
 * word for "no numbers left", is reachable: the page names no other word for a request nothing matches, so an unknown
 * carrier or an area code the market does not hold answers it too.
 */
export const DAISYSMS_CARRIER_CODES = ["tmo", "vz", "att"] as const;
export const DAISYSMS_SURCHARGE_PER_CHOICE = 0.2;

export const SANDBOX_US_AREAS: Readonly<Record<string, readonly string[]>> = {
  "201": ["tmo", "vz", "att"],
  "212": ["tmo", "vz", "att"],
  "213": ["tmo", "vz", "att"],
  "305": ["tmo", "vz", "att"],
  "310": ["tmo", "att"],
  "312": ["tmo", "vz", "att"],
  "347": ["tmo", "vz"],
  "415": ["tmo", "vz", "att"],
  "512": ["vz", "att"],
  "520": ["tmo", "att"],
  "617": ["tmo", "vz", "att"],
  "646": ["tmo", "vz", "att"],
  "702": ["tmo", "vz"],
  "718": ["tmo", "vz", "att"],
  "786": ["att"],
  "917": ["tmo", "vz", "att"],
};

/** A comma list as the page writes it (`tmo,vz`), empty entries dropped. */
export function commaList(value: string): string[] {
  return value.split(",").map((v) => v.trim()).filter(Boolean);
}

/**
 * The number a choice rents, or null when nothing matches (NO_NUMBERS). Without a choice, null too: the caller keeps
 * its ordinary number. The area code is the first asked for that holds one of the asked carriers.
 */
export function numberForChoice(seed: string, carriers: string[], areas: string[]): { number: string; carrier: string; area: string } | "none" | null {
  if (carriers.length === 0 && areas.length === 0) return null;
  if (carriers.some((c) => !(DAISYSMS_CARRIER_CODES as readonly string[]).includes(c))) return "none";
  const areaCodes = areas.length > 0 ? areas : Object.keys(SANDBOX_US_AREAS);
  for (const area of areaCodes) {
    const held = SANDBOX_US_AREAS[area];
    if (!held) continue;
    const carrier = carriers.length > 0 ? carriers.find((c) => held.includes(c)) : held[hash(`${seed}:carrier`) % held.length];
    if (!carrier) continue;
    // 555-01xx style: a fictional exchange in a real area code.
    const line = String(hash(`${seed}:line`) % 10_000).padStart(4, "0");
    return { number: `1${area}555${line}`, carrier, area };
  }
  return "none";
}
