import { Input } from "../../components/ui/input";

/** A row of list filters (status, provider, customer id...); every change refetches. */
export function Filters({ fields, values, onChange }: { fields: { name: string; label: string; options?: string[] }[]; values: Record<string, string>; onChange: (next: Record<string, string>) => void }) {
  return (
    <div className="grid grid-cols-2 gap-2 sm:grid-cols-4">
      {fields.map((f) => (
        <label key={f.name} className="flex flex-col gap-1 text-xs">
          <span>{f.label}</span>
          {f.options ? (
            <select
              className="h-10 rounded-lg border border-slate-300 bg-white px-2 text-sm dark:border-slate-700 dark:bg-slate-900"
              value={values[f.name] ?? ""}
              onChange={(e) => onChange({ ...values, [f.name]: e.target.value })}
            >
              {f.options.map((o) => (
                <option key={o} value={o}>
                  {o || "any"}
                </option>
              ))}
            </select>
          ) : (
            <Input value={values[f.name] ?? ""} onChange={(e) => onChange({ ...values, [f.name]: e.target.value })} />
          )}
        </label>
      ))}
    </div>
  );
}
