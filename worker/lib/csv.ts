/**
 * RFC 4180 CSV: every field quoted, quotes doubled, CRLF line ends. A text field starting with = + - @ (or a tab or CR)
 * gets a leading apostrophe so a spreadsheet never runs it as a formula (OWASP "CSV injection"); amounts are written by
 * the caller as plain digits and never start with those characters.
 */
export function toCsv(header: string[], rows: (string | number | null)[][]): string {
  const cell = (value: string | number | null) => {
    let text = value === null ? "" : String(value);
    if (typeof value === "string" && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
    return `"${text.replace(/"/g, '""')}"`;
  };
  return [header, ...rows].map((r) => r.map(cell).join(",")).join("\r\n") + "\r\n";
}

/** Naira with two decimals, no thousands separator (a number a spreadsheet reads as one). */
export function nairaCell(naira: number): string {
  return naira.toFixed(2);
}
