/**
 * Whether a location hash shows the landing page (the index route redirects there). index.html's inline theme script
 * repeats this test in plain JavaScript before first paint; web/lib/landing.test.ts holds both to the same cases.
 */
export function isLandingHash(hash: string): boolean {
  return hash === "" || hash === "#" || hash === "#/" || hash.startsWith("#/homepage");
}
