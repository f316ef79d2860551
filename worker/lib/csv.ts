/**
 * RFC 4180 CSV: every field quoted, quotes doubled, CRLF line ends. A text field starting with = + - @ (or a tab or CR)
 * gets a leading apostrophe so a spreadsheet never runs it as a formula (OWASP "CSV injection"); amounts are figures
 * the caller made with `nairaCell` (digits, a point and maybe a minus), written as they are so a spreadsheet sums them.
 */
export type CsvFigure = { readonly figure: string };
export type CsvCell = string | number | null | CsvFigure;

export function toCsv(header: string[], rows: CsvCell[][]): string {
  const cell = (value: CsvCell) => {
    if (value !== null && typeof value === "object") return `"${value.figure}"`;
    let text = value === null ? "" : String(value);
    if (typeof value === "string" && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
    return `"${text.replace(/"/g, '""')}"`;
  };
  return [header, ...rows].map((r) => r.map(cell).join(",")).join("\r\n") + "\r\n";
}

/** Naira with two decimals, no thousands separator, a minus for money out (a number a spreadsheet reads as one). */
export function nairaCell(naira: number): CsvFigure {
  const kobo = Math.round(naira * 100);
  return { figure: `${kobo < 0 ? "-" : ""}${(Math.abs(kobo) / 100).toFixed(2)}` };
}
