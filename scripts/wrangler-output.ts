/**
 * `npm start` shows what a newcomer needs: wrangler's own output minus two kinds of noise, each replaced once by a
 * line saying why it is harmless.
 * - "Scheduled Workers are not automatically triggered during local development": true of `wrangler dev` alone, but
 *   scripts/start.ts fires the cron sweep itself every 5 minutes, so the warning contradicts the README.
 * - workerd's "Broken pipe" / "Connection reset by peer" traces: a browser closed a connection while an answer was
 *   being written (a tab navigated away, a socket was replaced). Nothing is lost; the request simply had no reader.
 */
export const SCHEDULED_NOTE = "  (cron sweep: npm start triggers it itself every 5 minutes; wrangler's notice about scheduled workers does not apply)";
export const DISCONNECT_NOTE = "  (a browser closed a connection before its answer was written; harmless, shown once)";

const ESC = String.fromCharCode(27);
const stripAnsi = (line: string) => line.split(ESC).map((part, i) => (i === 0 ? part : part.replace(/^\[[0-9;]*m/, ""))).join("");
const isDisconnect = (line: string) => /Broken pipe|Connection reset by peer|\bEPIPE\b|\bECONNRESET\b/.test(line);
// The lines a disconnect trace continues with: stack frames, kj/workerd source positions, blank lines.
const isTraceLine = (line: string) => /^\s*$|^\s+at\s|kj\/|workerd\/|^\s*stack:|^\s*\}?\s*$/.test(line);

/** A line filter with memory (the scheduled warning spans several lines; each note is printed once). */
export function createWranglerOutputFilter(): (line: string) => string[] {
  let inScheduledBlock = false;
  let inDisconnectTrace = false;
  let scheduledNoted = false;
  let disconnectNoted = false;
  return (rawLine: string) => {
    const line = stripAnsi(rawLine);
    if (inScheduledBlock) {
      if (/For more details, see/.test(line)) inScheduledBlock = false;
      return [];
    }
    if (/Scheduled Workers are not automatically triggered/.test(line)) {
      inScheduledBlock = true;
      if (scheduledNoted) return [];
      scheduledNoted = true;
      return [SCHEDULED_NOTE];
    }
    if (isDisconnect(line)) {
      inDisconnectTrace = true;
      if (disconnectNoted) return [];
      disconnectNoted = true;
      return [DISCONNECT_NOTE];
    }
    if (inDisconnectTrace) {
      if (isTraceLine(line)) return [];
      inDisconnectTrace = false;
    }
    return [rawLine];
  };
}
