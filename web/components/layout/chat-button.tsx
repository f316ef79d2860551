import { Send } from "lucide-react";
import { useLinks } from "../../api/content";

/**
 * The chat-channel button (spec section 2): the first operator link. From 768 px it floats at the bottom right, in a
 * gutter the content leaves free (the shell's main has md:pr-20: the button's 56 px and its 20 px margin), so it never covers a control. It pulses three times when
 * it appears, then rests: an endless pulse is motion beside the content that never stops (WCAG 2.2.2 asks it to stop
 * within 5 s), and on a phone-class machine it redraws the page sixty times a second for nothing.
 * Narrower, there is no room for a gutter, and a floating button covered amounts, badges and the password eye: it sits
 * in the header instead (decision 003). The shell renders one of each; CSS shows the one that fits. Under 360 px the
 * header has no room left for it beside the balance: the menu's own entry (ChatMenuLink) is the way there, and it is in
 * the menu at every width (issue 43: it was off screen and absent from the menu).
 */
export function ChatButton({ placement }: { placement: "floating" | "header" }) {
  const links = useLinks();
  const href = links.data?.[0]?.link;
  if (!href) return null;
  const floating = placement === "floating";
  const link = (
    <a
      href={href}
      target="_blank"
      rel="noopener noreferrer"
      aria-label="Join our chat channel (opens in a new tab)"
      data-testid={floating ? "chat-button" : "chat-button-header"}
      className={
        "items-center justify-center rounded-full bg-sky-700 text-white focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600 " +
        (floating
          ? "fixed bottom-5 right-5 z-30 hidden h-14 w-14 shadow-lg transition-transform hover:scale-105 md:inline-flex"
          : "inline-flex h-9 w-9 shrink-0 hover:bg-sky-800 max-[359px]:hidden md:hidden")
      }
    >
      {floating ? <span className="absolute inset-0 rounded-full bg-sky-500 opacity-60 motion-safe:animate-ping-thrice" aria-hidden /> : null}
      <Send className={floating ? "relative h-6 w-6" : "h-4 w-4"} aria-hidden />
    </a>
  );
  // Floating, it is a landmark of its own, so screen-reader users find it the way they find the rest of the page.
  return floating ? <aside aria-label="Chat channel">{link}</aside> : link;
}

/** The chat channel as an entry (a list item) of the side navigation, the drawer on a phone: every width has a way to it. */
export function ChatMenuLink({ className, labelClassName }: { className: string; labelClassName: string }) {
  const links = useLinks();
  const href = links.data?.[0]?.link;
  if (!href) return null;
  return (
    <li>
      <a href={href} target="_blank" rel="noopener noreferrer" title="Join our chat channel" className={className} data-testid="chat-link-menu">
        <Send className="h-5 w-5 shrink-0" aria-hidden />
        <span className={labelClassName}>
          Join our chat channel<span className="sr-only"> (opens in a new tab)</span>
        </span>
      </a>
    </li>
  );
}
