/**
 * The searchable select's filter (issue 28): a service is found by its name, by its protocol code ("wa" for WhatsApp,
 * the keyword), and despite one wrong, missing or extra letter in a word of four letters or more ("whatsap",
 * "telegarm" is two: not found). Pure, so each rule is tested on its own.
 */
export function matchesSearch(label: string, query: string, keywords: readonly string[] = []): boolean {
  const q = query.trim().toLowerCase();
  if (!q) return true;
  const text = label.toLowerCase();
  if (text.includes(q)) return true;
  if (keywords.some((k) => k.toLowerCase() === q || k.toLowerCase().startsWith(q))) return true;
  if (q.length < 4) return false;
  // A word of the label (or its start, when the customer is still typing) within one edit of the query.
  return text.split(/[^a-z0-9]+/).some((word) => word.length >= 3 && (withinOneEdit(word, q) || withinOneEdit(word.slice(0, q.length), q)));
}

function withinOneEdit(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  let j = 0;
  let edits = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      i++;
      j++;
      continue;
    }
    if (++edits > 1) return false;
    if (a.length > b.length) i++;
    else if (b.length > a.length) j++;
    else {
      i++;
      j++;
    }
  }
  return edits + (a.length - i) + (b.length - j) <= 1;
}
