import { Send } from "lucide-react";
import { useLinks } from "../../api/content";

/** The floating chat-channel button (spec section 2): the first operator link, bottom right, gently pulsing. */
export function ChatButton() {
  const links = useLinks();
  const href = links.data?.[0]?.link;
  if (!href) return null;
  return (
    <a
      href={href}
      target="_blank"
      rel="noopener noreferrer"
      aria-label="Join our chat channel (opens in a new tab)"
      className="group fixed bottom-5 right-5 z-30 inline-flex h-14 w-14 items-center justify-center rounded-full bg-sky-500 text-white shadow-lg shadow-sky-500/30 transition-transform hover:scale-105 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600"
    >
      <span className="absolute inset-0 rounded-full bg-sky-400 opacity-60 motion-safe:animate-ping" aria-hidden />
      <Send className="relative h-6 w-6 -translate-x-0.5 translate-y-0.5" aria-hidden />
    </a>
  );
}
