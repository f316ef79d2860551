import {
  siApple,
  siDiscord,
  siFacebook,
  siGoogle,
  siInstagram,
  siLine,
  siNetflix,
  siPaypal,
  siSnapchat,
  siTelegram,
  siTiktok,
  siTinder,
  siUber,
  siViber,
  siWechat,
  siWhatsapp,
  siX,
  type SimpleIcon,
} from "simple-icons";

/**
 * Logos of the common brands, bundled from Simple Icons (CC0 SVG paths, no third-party request) with per-icon named
 * imports, so only these paths reach the Receive SMS chunk (lazy: never on the dashboard's path). Matched by the
 * service's name as the provider writes it; any other service shows its initial.
 */
const BY_NAME: Record<string, SimpleIcon> = {
  whatsapp: siWhatsapp,
  telegram: siTelegram,
  google: siGoogle,
  gmail: siGoogle,
  youtube: siGoogle,
  facebook: siFacebook,
  instagram: siInstagram,
  twitter: siX,
  x: siX,
  discord: siDiscord,
  apple: siApple,
  tiktok: siTiktok,
  tinder: siTinder,
  uber: siUber,
  paypal: siPaypal,
  netflix: siNetflix,
  viber: siViber,
  wechat: siWechat,
  line: siLine,
  snapchat: siSnapchat,
};

export function serviceIcon(name: string): SimpleIcon | undefined {
  return BY_NAME[name.toLowerCase().replace(/[^a-z0-9]/g, "")];
}

/** A brand colour too dark to see on the dark theme is drawn in the text colour instead. */
function isDark(hex: string): boolean {
  const n = parseInt(hex, 16);
  const [r, g, b] = [(n >> 16) & 255, (n >> 8) & 255, n & 255];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b < 60;
}

export function ServiceLogo({ name, className = "h-4 w-4" }: { name: string; className?: string }) {
  const icon = serviceIcon(name);
  if (!icon) {
    return (
      <span aria-hidden className={`${className} inline-flex shrink-0 items-center justify-center rounded bg-slate-200 text-[10px] font-semibold uppercase text-slate-700 dark:bg-slate-700 dark:text-slate-200`}>
        {name.trim().charAt(0)}
      </span>
    );
  }
  return (
    <svg aria-hidden viewBox="0 0 24 24" className={`${className} shrink-0`} fill={isDark(icon.hex) ? "currentColor" : `#${icon.hex}`} data-logo={icon.slug}>
      <path d={icon.path} />
    </svg>
  );
}
