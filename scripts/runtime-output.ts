/**
 * `npm start` shows what a newcomer needs: the runtime's output (the app's log lines, workerd's errors) minus one kind
 * of noise, replaced once by a line saying why it is harmless: workerd's "Broken pipe" / "Connection reset by peer"
 * traces, written when a browser closed a connection while an answer was being written (a tab navigated away, a socket
 * was replaced). Nothing is lost; the request simply had no reader.
 */
export const DISCONNECT_NOTE = "  (a browser closed a connection before its answer was written; harmless, shown once)";

const ESC = String.fromCharCode(27);
const stripAnsi = (line: string) => line.split(ESC).map((part, i) => (i === 0 ? part : part.replace(/^\[[0-9;]*m/, ""))).join("");
const isDisconnect = (line: string) => /Broken pipe|Connection reset by peer|\bEPIPE\b|\bECONNRESET\b/.test(line);
// The lines a disconnect trace continues with: stack frames, kj/workerd source positions, blank lines.
const isTraceLine = (line: string) => /^\s*$|^\s+at\s|kj\/|workerd\/|^\s*stack:|^\s*\}?\s*$/.test(line);

/** A line filter with memory (a trace spans several lines; the note is printed once). */
export function createRuntimeOutputFilter(): (line: string) => string[] {
  let inDisconnectTrace = false;
  let disconnectNoted = false;
  return (rawLine: string) => {
    const line = stripAnsi(rawLine);
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
