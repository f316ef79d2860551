import { toast } from "./toast";

/** Copies text and shows the spec's toast, or says to copy by hand. */
export async function copyText(text: string, successMessage: string): Promise<void> {
  try {
    await writeClipboard(text);
    toast.success(successMessage);
  } catch {
    toast.error("Could not copy: select the text and copy it by hand.");
  }
}

/**
 * The one way the app writes the clipboard (for callers with their own feedback). Falls back to a hidden textarea
 * where the async clipboard is missing or refused (an http origin, an older WebView); rejects when both fail.
 */
export async function writeClipboard(text: string): Promise<void> {
  try {
    if (!navigator.clipboard?.writeText) throw new Error("no async clipboard");
    await navigator.clipboard.writeText(text);
  } catch {
    legacyCopy(text);
  }
}

function legacyCopy(text: string) {
  const area = document.createElement("textarea");
  area.value = text;
  area.setAttribute("readonly", "");
  area.style.position = "fixed";
  area.style.opacity = "0";
  document.body.appendChild(area);
  area.select();
  const ok = document.execCommand("copy");
  area.remove();
  if (!ok) throw new Error("copy refused");
}
