/**
 * Duplicate slashes in an ad image address are collapsed (an operator pasting "https://cdn.x//img.png" or a base URL
 * ending in a slash); the "//" after a scheme is kept.
 */
export function collapseSlashes(url: string): string {
  return url.replace(/(^|[^:])\/{2,}/g, "$1/");
}
