// The landing page's tiles, bundled with the app (the original fetched them from third-party services at run time).

/** A brand shown as a monogram in its brand colour: no logo files, no icon set, no request. */
export type ServiceTile = { name: string; monogram: string; color: string; text?: string };

export const SERVICE_TILES: ServiceTile[] = [
  { name: "WhatsApp", monogram: "W", color: "#25D366" },
  { name: "Telegram", monogram: "T", color: "#26A5E4" },
  { name: "Facebook", monogram: "f", color: "#0866FF" },
  { name: "Instagram", monogram: "I", color: "#E4405F" },
  { name: "TikTok", monogram: "T", color: "#111111" },
  { name: "Google", monogram: "G", color: "#4285F4" },
  { name: "Twitter / X", monogram: "X", color: "#111111" },
  { name: "Discord", monogram: "D", color: "#5865F2" },
  { name: "Tinder", monogram: "t", color: "#FF4458" },
  { name: "Amazon", monogram: "a", color: "#FF9900", text: "#111111" },
  { name: "Microsoft", monogram: "M", color: "#737373" },
  { name: "WeChat", monogram: "W", color: "#07C160" },
];

/** A country whose flag is plain stripes, drawn as SVG (flag emoji do not render on every system). */
export type CountryTile = { name: string; stripes: string[]; direction: "vertical" | "horizontal" };

export const COUNTRY_TILES: CountryTile[] = [
  { name: "Nigeria", stripes: ["#008751", "#FFFFFF", "#008751"], direction: "vertical" },
  { name: "Germany", stripes: ["#000000", "#DD0000", "#FFCE00"], direction: "horizontal" },
  { name: "France", stripes: ["#0055A4", "#FFFFFF", "#EF4135"], direction: "vertical" },
  { name: "Netherlands", stripes: ["#AE1C28", "#FFFFFF", "#21468B"], direction: "horizontal" },
  { name: "Indonesia", stripes: ["#CE1126", "#FFFFFF"], direction: "horizontal" },
  { name: "Italy", stripes: ["#009246", "#FFFFFF", "#CE2B37"], direction: "vertical" },
  { name: "Ireland", stripes: ["#169B62", "#FFFFFF", "#FF883E"], direction: "vertical" },
  { name: "Belgium", stripes: ["#000000", "#FDDA24", "#EF3340"], direction: "vertical" },
  { name: "Ukraine", stripes: ["#0057B7", "#FFD700"], direction: "horizontal" },
  { name: "Poland", stripes: ["#FFFFFF", "#DC143C"], direction: "horizontal" },
  { name: "Austria", stripes: ["#ED2939", "#FFFFFF", "#ED2939"], direction: "horizontal" },
  { name: "Estonia", stripes: ["#0072CE", "#000000", "#FFFFFF"], direction: "horizontal" },
];
