import { useEffect, useState } from "react";
import type { Ad } from "../../../schema/settings";
// Through the dashboard route module: see the note there (no chunk split on the customer's path).
import { AD_BACKGROUNDS, AdsCarousel } from "../../routes/dashboard";
import { Button } from "../../components/ui/button";
import { Input } from "../../components/ui/input";
import type { AdminAuditRow, AdminSettingChanged, SettingChangeBody } from "../../../schema/admin";
import { useAdminChange, useSettings, when } from "../api";
import { ActionForm, Loading, Panel, Table } from "../ui";

type Change = SettingChangeBody & { key: string };

const TITLES: Record<string, string> = {
  exchange_rate: "Exchange rate (₦ per US$)",
  costs: "Markups (fractions: 0.5 = 50%)",
  rate_settings: "Funding: crypto minimum (US$), crypto rate (₦/US$), card minimum (₦)",
  referral_reward_percent: "Referral reward (% of the first deposit)",
  tiers: "Discount tiers",
  links: "Links",
  sms_poll: "SMS polling",
  sms_price_guard: "Price ceilings",
  upstream_floors: "Upstream balance floors (US$)",
};

const isFlatNumbers = (v: unknown): v is Record<string, number> =>
  typeof v === "object" && v !== null && !Array.isArray(v) && Object.values(v).every((x) => typeof x === "number");

/** A setting as number fields when it is a flat object of numbers, else as JSON. Saved with a reason, audited. */
function SettingEditor({ name, value, save }: { name: string; value: unknown; save: (c: Change) => Promise<unknown> }) {
  const flat = isFlatNumbers(value);
  const [json, setJson] = useState(() => JSON.stringify(value, null, 2));
  useEffect(() => setJson(JSON.stringify(value, null, 2)), [value]);
  return (
    <Panel title={TITLES[name] ?? name}>
      <ActionForm
        label="Save"
        testId={`setting-${name}`}
        onSubmit={(reason, form) => {
          let next: unknown;
          if (flat) next = Object.fromEntries(Object.keys(value).map((k) => [k, Number(form.get(k))]));
          else {
            try {
              next = JSON.parse(json);
            } catch {
              return Promise.reject(new Error("The value is not valid JSON."));
            }
          }
          return save({ key: name, value: next, reason });
        }}
      >
        {flat ? (
          <div className="grid grid-cols-2 gap-2 sm:grid-cols-3">
            {Object.entries(value).map(([k, v]) => (
              <label key={`${k}:${v}`} className="flex flex-col gap-1 text-sm">
                <span>{k}</span>
                <Input name={k} type="number" step="any" defaultValue={v} required />
              </label>
            ))}
          </div>
        ) : (
          <textarea
            aria-label={`${name} (JSON)`}
            className="min-h-40 w-full rounded-lg border border-slate-300 bg-white p-2 font-mono text-xs dark:border-slate-700 dark:bg-slate-900"
            value={json}
            onChange={(e) => setJson(e.target.value)}
          />
        )}
      </ActionForm>
    </Panel>
  );
}

/** Ads: edit each slide, see the customer's carousel update as you type, save with a reason. */
function AdsEditor({ value, save }: { value: Ad[]; save: (c: Change) => Promise<unknown> }) {
  const [ads, setAds] = useState<Ad[]>(value);
  useEffect(() => setAds(value), [value]);
  const edit = (i: number, patch: Partial<Ad>) => setAds((list) => list.map((a, j) => (j === i ? { ...a, ...patch } : a)));
  return (
    <Panel title="Ads (live preview below)">
      <div className="flex flex-col gap-4">
        {ads.map((ad, i) => (
          <fieldset key={ad.id} className="grid gap-2 rounded-lg border border-slate-200 p-3 sm:grid-cols-2 dark:border-slate-700">
            <legend className="px-1 text-xs text-slate-500">Ad {i + 1}</legend>
            <label className="flex flex-col gap-1 text-sm sm:col-span-2">
              <span>Text</span>
              <Input aria-label={`Ad ${i + 1} text`} value={ad.content} onChange={(e) => edit(i, { content: e.target.value })} />
            </label>
            <label className="flex flex-col gap-1 text-sm">
              <span>Image URL</span>
              <Input value={ad.url} onChange={(e) => edit(i, { url: e.target.value })} />
            </label>
            <label className="flex flex-col gap-1 text-sm">
              <span>Link</span>
              <Input value={ad.link} onChange={(e) => edit(i, { link: e.target.value })} />
            </label>
            <label className="flex flex-col gap-1 text-sm">
              <span>Colour</span>
              <select className="h-10 rounded-lg border border-slate-300 bg-white px-2 text-sm dark:border-slate-700 dark:bg-slate-900" value={ad.bg} onChange={(e) => edit(i, { bg: e.target.value })}>
                {AD_BACKGROUNDS.map((bg) => (
                  <option key={bg}>{bg}</option>
                ))}
              </select>
            </label>
            <div className="flex items-end">
              <Button variant="outline" size="sm" onClick={() => setAds((list) => list.filter((_, j) => j !== i))}>
                Remove
              </Button>
            </div>
          </fieldset>
        ))}
        <Button
          variant="outline"
          size="sm"
          onClick={() => setAds((list) => [...list, { id: Math.max(0, ...list.map((a) => a.id)) + 1, url: "/ads/whatsapp.svg", link: "/#/sms/1", content: "New offer", bg: AD_BACKGROUNDS[0] }])}
        >
          Add an ad
        </Button>
        <div data-testid="ads-preview">
          <p className="mb-1 text-xs text-slate-500">Preview: what customers will see</p>
          <AdsCarousel preview={ads} />
        </div>
        <ActionForm label="Publish ads" testId="ads-form" onSubmit={(reason) => save({ key: "ads", value: ads, reason })} />
      </div>
    </Panel>
  );
}

/** Prices and content: every operator setting, each change audited with the value it replaced (history below). */
export default function PricesPage() {
  const q = useSettings();
  const change = useAdminChange<Change, AdminSettingChanged>((c) => `/settings/${encodeURIComponent(c.key)}`, "PATCH");
  const save = (c: Change) => change.mutateAsync(c);
  if (!q.data) return <Loading error={q.error} />;
  const { settings, history } = q.data;
  return (
    <>
      <h1 className="text-xl font-semibold">Prices and content</h1>
      <AdsEditor value={(settings.ads as Ad[]) ?? []} save={save} />
      <div className="grid gap-4 md:grid-cols-2">
        {Object.entries(settings)
          .filter(([k]) => k !== "ads")
          .map(([k, v]) => (
            <SettingEditor key={k} name={k} value={v} save={save} />
          ))}
      </div>
      <Panel title="History">
        <Table
          head={["When", "Who", "Setting", "Before", "After", "Why"]}
          rows={history.map((h: AdminAuditRow) => {
            const detail = h.detail as { key?: string; value?: unknown } | null;
            return [when(h.createdAt), h.actor, h.subject ?? detail?.key ?? "", <code key="b" className="break-all text-xs">{JSON.stringify(h.previous)}</code>, <code key="a" className="break-all text-xs">{JSON.stringify(detail?.value)}</code>, h.reason ?? ""];
          })}
          empty="No change recorded yet."
        />
      </Panel>
    </>
  );
}
