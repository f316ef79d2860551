/**
 * Does the name a bank holds an account in belong to our customer (issue 45, docs/decisions/071)? Banks and the BVN
 * write the same person differently: "OBI ADA NKEM", "Ada Obi", "ADA N. OBI", "MOHD BELLO" for "Mohammed Bello". So the
 * comparison ignores order, case, punctuation and middle names, accepts an initial for a name and the common
 * abbreviations below, and asks that at least two full names agree (a first name and a surname), none used twice;
 * an initial may stand for a middle name.
 */

/** Common abbreviations and spellings in Nigerian account names, each to one form. */
const SAME_NAME: Record<string, string> = {
  MOHD: "MUHAMMAD",
  MOHAMMED: "MUHAMMAD",
  MOHAMMAD: "MUHAMMAD",
  MOHAMED: "MUHAMMAD",
  MUHAMMED: "MUHAMMAD",
  MUHD: "MUHAMMAD",
  ABDUL: "ABDUL",
  ABD: "ABDUL",
  OLUWA: "OLUWA",
  CHUKWU: "CHUKWU",
  EMMA: "EMMANUEL",
  EMMANUEL: "EMMANUEL",
  IBRAHEEM: "IBRAHIM",
  YUSUF: "YUSUF",
  YUSUFF: "YUSUF",
  YUSSUF: "YUSUF",
  AMINAT: "AMINAT",
  AMINA: "AMINAT",
  FATIMA: "FATIMA",
  FATIMAH: "FATIMA",
};

/** Titles and words that are not names. */
const NOT_NAMES = new Set(["MR", "MRS", "MS", "MISS", "DR", "CHIEF", "ALHAJI", "ALHAJA", "PROF", "ENGR", "SIR", "HON", "PASTOR"]);

export function nameTokens(name: string): string[] {
  return name
    .toUpperCase()
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .split(/[^A-Z]+/)
    .filter((t) => t.length > 0 && !NOT_NAMES.has(t))
    .map((t) => SAME_NAME[t] ?? t);
}

const agree = (a: string, b: string) => a === b || (a.length === 1 && b.startsWith(a)) || (b.length === 1 && a.startsWith(b));

export type NameMatch = { matched: true } | { matched: false; reason: string };

/**
 * `verified` is the customer's (BVN-checked or declared) name, `banked` the name Squad's lookup answered.
 */
export function matchNames(verified: string, banked: string): NameMatch {
  const ours = nameTokens(verified);
  const theirs = nameTokens(banked);
  if (ours.length < 2) return { matched: false, reason: `We need your first name and surname to compare with the bank's; we have only "${verified.trim()}".` };
  const left = [...theirs];
  const matched: string[] = [];
  let fullMatches = 0;
  const unmatched: string[] = [];
  // Full names first, so an initial does not take a name a full one would have matched.
  for (const token of [...ours].sort((a, b) => b.length - a.length)) {
    const at = left.findIndex((t) => agree(token, t));
    if (at >= 0) {
      matched.push(token);
      if (token.length > 1 && left[at]!.length > 1) fullMatches += 1;
      left.splice(at, 1);
    } else unmatched.push(token);
  }
  if (fullMatches >= 2) return { matched: true };
  const missing = unmatched.length > 0 ? unmatched.map((t) => t.charAt(0) + t.slice(1).toLowerCase()).join(", ") : "your names";
  return {
    matched: false,
    reason: `The bank says this account belongs to ${banked.trim()}, which does not match your name ${verified.trim()} (${missing} not found). You can only withdraw to an account in your own name.`,
  };
}
