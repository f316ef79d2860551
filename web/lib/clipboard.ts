import { toast } from "./toast";

/** Copies text and shows the spec's toast. Falls back to a hidden textarea where the async clipboard is refused. */
export async function copyText(text: string, successMessage: string): Promise<void> {
  try {
    if (navigator.clipboard?.writeText) {
      await navigator.clipboard.writeText(text);
    } else {
      legacyCopy(text);
    }
    toast.success(successMessage);
  } catch {
    try {
      legacyCopy(text);
      toast.success(successMessage);
    } catch {
      toast.error("Could not copy: select the text and copy it by hand.");
    }
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
