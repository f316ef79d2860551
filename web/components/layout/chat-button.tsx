import { Send } from "lucide-react";
import { useLinks } from "../../api/content";
import { cn } from "../../lib/cn";

/**
 * The chat-channel button (spec section 2): the first operator link. From 768 px it floats at the bottom right, gently
 * pulsing, in a gutter the content leaves free (the shell's main has md:pr-24), so it never covers a control. Narrower,
 * there is no room for a gutter, and a floating button covered amounts, badges and the password eye: it sits in the
 * header instead (decision 003).
 */
export function ChatButton({ placement }: { placement: "floating" | "header" }) {
  const links = useLinks();
  const href = links.data?.[0]?.link;
  if (!href) return null;
  if (placement === "header") {
    return (
      <a
        href={href}
        target="_blank"
        rel="noopener noreferrer"
        aria-label="Join our chat channel (opens in a new tab)"
        data-testid="chat-button-header"
        className="inline-flex h-9 w-9 shrink-0 items-center justify-center rounded-full bg-sky-700 text-white hover:bg-sky-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600 md:hidden"
      >
        <Send className="h-4 w-4 -translate-x-px translate-y-px" aria-hidden />
      </a>
    );
  }
  // In a landmark of its own, so screen-reader users find it the way they find the rest of the page.
  return (
    <aside aria-label="Chat channel">
    <a
      href={href}
      target="_blank"
      rel="noopener noreferrer"
      aria-label="Join our chat channel (opens in a new tab)"
      data-testid="chat-button"
      className={cn(
        "group fixed bottom-5 right-5 z-30 hidden h-14 w-14 items-center justify-center rounded-full bg-sky-700 text-white shadow-lg shadow-sky-700/30 transition-transform hover:scale-105 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600 md:inline-flex",
      )}
    >
      <span className="absolute inset-0 rounded-full bg-sky-500 opacity-60 motion-safe:animate-ping" aria-hidden />
      <Send className="relative h-6 w-6 -translate-x-0.5 translate-y-0.5" aria-hidden />
    </a>
    </aside>
  );
}
