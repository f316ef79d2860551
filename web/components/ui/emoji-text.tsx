import { createElement } from "react";

/**
 * The spec's texts that open with ⏰ or ❌ ('⏰ Timeout: No code received', '❌ Error polling SMS'). Systems without an
 * emoji font (many Linux desktops, older Android WebViews) draw those as empty boxes, so the screen shows a drawn icon
 * in their place; the character stays in the text for screen readers and copy-paste. Paths: lucide's alarm-clock and
 * circle-x (ISC), inlined so neither needs the icon library.
 */
const ICONS: Record<string, { label: string; paths: string[]; circles?: [number, number, number][] }> = {
  "⏰": {
    label: "alarm clock",
    circles: [[12, 13, 8]],
    paths: ["M12 9v4l2 2", "M5 3 2 6", "m22 6-3-3", "M6.38 18.7 4 21", "M17.64 18.67 20 21"],
  },
  "❌": { label: "cross", circles: [[12, 12, 10]], paths: ["m15 9-6 6", "m9 9 6 6"] },
};

const LEADING = /^(⏰|❌)\uFE0F?\s*/u;

/** Whether a text opens with one of the emoji drawn here. */
export const hasDrawnEmoji = (text: string) => LEADING.test(text);

export function EmojiText({ text, className }: { text: string; className?: string }) {
  const m = LEADING.exec(text);
  if (!m) return createElement("span", { className }, text);
  const icon = ICONS[m[1]];
  const svg = createElement(
    "svg",
    {
      viewBox: "0 0 24 24",
      width: "1.1em",
      height: "1.1em",
      fill: "none",
      stroke: "currentColor",
      strokeWidth: 2,
      strokeLinecap: "round",
      strokeLinejoin: "round",
      "aria-hidden": true,
      className: "inline-block shrink-0 align-[-0.15em]",
      "data-emoji": m[1],
    },
    ...(icon.circles ?? []).map(([cx, cy, r], i) => createElement("circle", { key: `c${i}`, cx, cy, r })),
    ...icon.paths.map((d, i) => createElement("path", { key: `p${i}`, d })),
  );
  return createElement(
    "span",
    { className: `inline-flex items-center gap-1.5 ${className ?? ""}`.trim() },
    svg,
    // The character itself, kept for assistive technology and copying, but not drawn (it may be a box).
    createElement("span", { className: "sr-only" }, `${m[1]} `),
    createElement("span", null, text.slice(m[0].length)),
  );
}
