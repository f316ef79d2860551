import type { CountryTile, ServiceTile } from "./supported-data";

const tileClasses =
  "flex flex-col items-center gap-3 rounded-xl border border-slate-200 bg-white p-4 text-center shadow-sm transition-shadow hover:shadow-md dark:border-slate-800 dark:bg-slate-900";

export function ServiceTileCard({ tile }: { tile: ServiceTile }) {
  return (
    <li className={tileClasses}>
      <svg viewBox="0 0 40 40" className="h-10 w-10" aria-hidden>
        <rect width="40" height="40" rx="10" fill={tile.color} />
        <text x="20" y="27" textAnchor="middle" fontSize="20" fontWeight="700" fontFamily="system-ui, sans-serif" fill={tile.text ?? "#FFFFFF"}>
          {tile.monogram}
        </text>
      </svg>
      <span className="text-sm font-medium">{tile.name}</span>
    </li>
  );
}

export function CountryTileCard({ tile }: { tile: CountryTile }) {
  const n = tile.stripes.length;
  return (
    <li className={tileClasses}>
      <svg viewBox="0 0 60 40" className="h-10 w-15 overflow-hidden rounded-md ring-1 ring-slate-200 dark:ring-slate-700" aria-hidden>
        {tile.stripes.map((color, i) =>
          tile.direction === "vertical" ? (
            <rect key={i} x={(60 / n) * i} y="0" width={60 / n + 0.5} height="40" fill={color} />
          ) : (
            <rect key={i} x="0" y={(40 / n) * i} width="60" height={40 / n + 0.5} fill={color} />
          ),
        )}
      </svg>
      <span className="text-sm font-medium">{tile.name}</span>
    </li>
  );
}
