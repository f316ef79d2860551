import { useEffect, useState } from "react";

/**
 * A QR code drawn as one SVG path. The encoder (uqr, about 5 kB gzip) is imported only when a code is shown, so it
 * never weighs on the landing or the dashboard: only the two-factor setup loads it.
 */
export function QrCode({ value, label, className }: { value: string; label: string; className?: string }) {
  const [modules, setModules] = useState<boolean[][] | null>(null);

  useEffect(() => {
    let live = true;
    void import("uqr").then(({ encode }) => {
      if (live) setModules(encode(value, { ecc: "M", border: 2 }).data);
    });
    return () => {
      live = false;
    };
  }, [value]);

  if (!modules) return <div className={className} aria-busy="true" />;
  const size = modules.length;
  let path = "";
  modules.forEach((row, y) => row.forEach((dark, x) => {
    if (dark) path += `M${x} ${y}h1v1h-1z`;
  }));
  return (
    <svg role="img" aria-label={label} viewBox={`0 0 ${size} ${size}`} className={className} shapeRendering="crispEdges">
      <rect width={size} height={size} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  );
}
