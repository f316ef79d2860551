import { useEffect, useId, useState } from "react";
import type { Ad, DiscountTier, SettingKey, SiteLink, WholesaleTier } from "../../../schema/settings";
// Through the dashboard route module: see the note there (no chunk split on the customer's path).
import { AD_BACKGROUNDS, AdsCarousel } from "../../routes/dashboard";
import { Button } from "../../components/ui/button";
import { Input } from "../../components/ui/input";
import type { AdminAuditRow, SettingChangeBody } from "../../../schema/admin";
import { admin, naira, useAdminChange, useSettings, when } from "../api";
import { fieldsOf, readableChange } from "../readable";
import { AD_COLOUR_NAMES, AD_COLOUR_SWATCH, fromFormValues, NUMBER_FORMS, toFormValues, type NumberForm } from "../setting-forms";
import { ActionForm, Loading, Panel, Table } from "../ui";

type Change = SettingChangeBody & { key: SettingKey };
type Save = (c: Change) => Promise<unknown>;

/** A key of the settings the server answered (each is a setting's name, which the PATCH route's key must be). */
const isSettingKey = (key: string, settings: object): key is SettingKey => key in settings;

/** A number with its label, unit and bounds: the unit sits beside the field, the bounds are the input's own. */
function NumberInput({ label, unit, value, onChange, min, max, step, required = true }: { label: string; unit: string; value: string; onChange: (v: string) => void; min?: number; max?: number; step?: number; required?: boolean }) {
  const id = useId();
  const bounds = [min !== undefined ? `from ${min}` : null, max !== undefined ? `to ${max}` : null].filter(Boolean).join(" ");
  return (
    <div className="flex flex-col gap-1 text-sm">
      <label htmlFor={id}>{label}</label>
      <div className="flex items-center gap-2">
        <Input id={id} type="number" inputMode="decimal" value={value} min={min} max={max} step={step ?? "any"} required={required} onChange={(e) => onChange(e.target.value)} aria-describedby={`${id}-unit`} />
        <span id={`${id}-unit`} className="shrink-0 text-xs text-slate-600 dark:text-slate-400">
          {unit}
          {bounds ? ` (${bounds})` : ""}
        </span>
      </div>
    </div>
  );
}

function Preview({ children }: { children: React.ReactNode }) {
  return (
    <p className="rounded-lg bg-slate-50 p-2 text-sm text-slate-700 dark:bg-slate-800/60 dark:text-slate-200" data-testid="setting-preview">
      {children}
    </p>
  );
}

/** A setting that is a handful of numbers (exchange rate, markups, funding, referral, polling, upstream currencies). */
export function NumberSettingForm({ name, form, value, save }: { name: SettingKey; form: NumberForm; value: unknown; save: Save }) {
  const [shown, setShown] = useState(() => toFormValues(form, value));
  useEffect(() => setShown(toFormValues(form, value)), [form, value]);
  const parsed = fromFormValues(form, shown);
  return (
    <Panel title={form.title}>
      <ActionForm
        label="Save"
        testId={`setting-${name}`}
        onSubmit={(reason) => ("error" in parsed ? Promise.reject(new Error(parsed.error)) : save({ key: name, value: parsed.value, reason }))}
      >
        <div className="grid gap-3 sm:grid-cols-2">
          {form.fields.map((f) => (
            <NumberInput
              key={f.key}
              label={f.label}
              unit={f.unit}
              min={f.min}
              max={f.max}
              step={f.step}
              required={!f.optional}
              value={shown[f.key] ?? ""}
              onChange={(v) => setShown((s) => ({ ...s, [f.key]: v }))}
            />
          ))}
        </div>
        <Preview>{"error" in parsed ? parsed.error : form.preview(parsed.value)}</Preview>
      </ActionForm>
    </Panel>
  );
}

/** Named numbers (upstream floors per provider, price ceilings per service): rows of name + amount, add and remove. */
function RecordRows({ rows, setRows, nameLabel, unit }: { rows: [string, string][]; setRows: (r: [string, string][]) => void; nameLabel: string; unit: string }) {
  return (
    <div className="flex flex-col gap-2">
      {rows.map(([k, v], i) => (
        <div key={i} className="grid grid-cols-[1fr_1fr_auto] items-end gap-2">
          <label className="flex flex-col gap-1 text-sm">
            <span>{nameLabel}</span>
            <Input value={k} required onChange={(e) => setRows(rows.map((r, j) => (j === i ? [e.target.value, r[1]] : r)))} />
          </label>
          <NumberInput label={`Amount for ${k || "this row"}`} unit={unit} min={0} value={v} onChange={(nv) => setRows(rows.map((r, j) => (j === i ? [r[0], nv] : r)))} />
          <Button variant="outline" size="sm" onClick={() => setRows(rows.filter((_, j) => j !== i))}>
            Remove
          </Button>
        </div>
      ))}
      <Button variant="outline" size="sm" onClick={() => setRows([...rows, ["", ""]])}>
        Add a row
      </Button>
    </div>
  );
}

const recordOf = (rows: [string, string][]) => Object.fromEntries(rows.filter(([k]) => k.trim()).map(([k, v]) => [k.trim(), Number(v)]));

function FloorsForm({ value, save }: { value: Record<string, number>; save: Save }) {
  const [rows, setRows] = useState<[string, string][]>(() => Object.entries(value).map(([k, v]) => [k, String(v)]));
  useEffect(() => setRows(Object.entries(value).map(([k, v]) => [k, String(v)])), [value]);
  const floors = recordOf(rows);
  return (
    <Panel title="Upstream balance floors">
      <ActionForm label="Save" testId="setting-upstream_floors" onSubmit={(reason) => save({ key: "upstream_floors", value: floors, reason })}>
        <RecordRows rows={rows} setRows={setRows} nameLabel="Provider" unit="US$" />
        <Preview>
          {Object.keys(floors).length ? Object.entries(floors).map(([k, v]) => `${k} is hidden from customers below US$${v}`).join("; ") + "." : "No floor: no provider is ever hidden for its balance."}
        </Preview>
      </ActionForm>
    </Panel>
  );
}

/** Issue 48 (decision 070): the Telegram bot's safety settings: two amounts and two switches. */
function TelegramBotForm({ value, save }: { value: { confirm_above_naira: number; updates_per_minute: number; unlink_on_session_revoked: boolean; unlink_on_password_change: boolean }; save: Save }) {
  const [above, setAbove] = useState(String(value.confirm_above_naira));
  const [perMinute, setPerMinute] = useState(String(value.updates_per_minute));
  const [onRevoke, setOnRevoke] = useState(value.unlink_on_session_revoked);
  const [onPassword, setOnPassword] = useState(value.unlink_on_password_change);
  useEffect(() => {
    setAbove(String(value.confirm_above_naira));
    setPerMinute(String(value.updates_per_minute));
    setOnRevoke(value.unlink_on_session_revoked);
    setOnPassword(value.unlink_on_password_change);
  }, [value]);
  const next = { confirm_above_naira: Number(above), updates_per_minute: Number(perMinute), unlink_on_session_revoked: onRevoke, unlink_on_password_change: onPassword };
  const ends = [onRevoke && "its web session is signed out", onPassword && "the password changes"].filter(Boolean).join(" or ");
  return (
    <Panel title="Telegram bot">
      <ActionForm label="Save" testId="setting-telegram_bot" onSubmit={(reason) => save({ key: "telegram_bot", value: next, reason })}>
        <div className="grid gap-3 sm:grid-cols-2">
          <NumberInput label="Chat payments above this need a fresh confirmation" unit="₦" min={0} max={10_000_000} value={above} onChange={setAbove} />
          <NumberInput label="Messages a chat may send a minute" unit="per minute" min={1} max={600} value={perMinute} onChange={setPerMinute} />
        </div>
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" checked={onRevoke} onChange={(e) => setOnRevoke(e.target.checked)} /> Disconnect the chat when the web session that connected it is signed out
        </label>
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" checked={onPassword} onChange={(e) => setOnPassword(e.target.checked)} /> Disconnect the chat when the password changes
        </label>
        <Preview>
          {`A payment from the chat above ${naira(next.confirm_above_naira)} waits for a confirmation in the web app or a code from the authenticator app; a chat is answered at most ${next.updates_per_minute} times a minute${ends ? `; its link ends when ${ends}` : ""}.`}
        </Preview>
      </ActionForm>
    </Panel>
  );
}

function PriceGuardForm({ value, save }: { value: { ceiling_naira: number; service_ceilings: Record<string, number>; max_jump: number }; save: Save }) {
  const [ceiling, setCeiling] = useState(String(value.ceiling_naira));
  const [jump, setJump] = useState(String(value.max_jump));
  const [rows, setRows] = useState<[string, string][]>(() => Object.entries(value.service_ceilings).map(([k, v]) => [k, String(v)]));
  useEffect(() => {
    setCeiling(String(value.ceiling_naira));
    setJump(String(value.max_jump));
    setRows(Object.entries(value.service_ceilings).map(([k, v]) => [k, String(v)]));
  }, [value]);
  const next = { ceiling_naira: Number(ceiling), max_jump: Number(jump), service_ceilings: recordOf(rows) };
  return (
    <Panel title="Price ceilings">
      <ActionForm label="Save" testId="setting-sms_price_guard" onSubmit={(reason) => save({ key: "sms_price_guard", value: next, reason })}>
        <div className="grid gap-3 sm:grid-cols-2">
          <NumberInput label="Highest SMS price sold" unit="₦" min={1} value={ceiling} onChange={setCeiling} />
          <NumberInput label="Largest upstream price jump accepted" unit="× the last price" min={1} step={0.1} value={jump} onChange={setJump} />
        </div>
        <p className="text-sm font-medium">Per service (provider:service id)</p>
        <RecordRows rows={rows} setRows={setRows} nameLabel="Service" unit="₦" />
        <Preview>
          No SMS sells above {naira(next.ceiling_naira || 0)} (unless its service has its own ceiling); an upstream price more than {next.max_jump || "?"}× away from the last
          accepted one is refused.
        </Preview>
      </ActionForm>
    </Panel>
  );
}

/**
 * A list setting being edited (the tiers, the wholesale tiers, the links): a draft that follows the saved value, and
 * the three edits its rows offer.
 */
function useListDraft<T>(value: T[]) {
  const [items, setItems] = useState(value);
  useEffect(() => setItems(value), [value]);
  return {
    items,
    edit: (i: number, patch: Partial<T>) => setItems((list) => list.map((item, j) => (j === i ? { ...item, ...patch } : item))),
    remove: (i: number) => setItems((list) => list.filter((_, j) => j !== i)),
    add: (make: (list: T[]) => T) => setItems((list) => [...list, make(list)]),
  };
}

function TiersForm({ value, save }: { value: DiscountTier[]; save: Save }) {
  const { items: tiers, edit, remove, add } = useListDraft(value);
  return (
    <Panel title="Discount tiers">
      <ActionForm label="Save" testId="setting-tiers" onSubmit={(reason) => save({ key: "tiers", value: tiers, reason })}>
        {tiers.map((t, i) => (
          <fieldset key={i} className="grid gap-2 rounded-lg border border-slate-200 p-3 sm:grid-cols-4 dark:border-slate-700">
            <legend className="px-1 text-xs text-slate-600 dark:text-slate-400">Tier {i + 1}</legend>
            <label className="flex flex-col gap-1 text-sm">
              <span>Name</span>
              <Input value={t.text} required onChange={(e) => edit(i, { text: e.target.value })} />
            </label>
            <label className="flex flex-col gap-1 text-sm">
              <span>Icon</span>
              <Input value={t.icon} onChange={(e) => edit(i, { icon: e.target.value })} />
            </label>
            <NumberInput label={`${t.text || "Tier"}: from total deposited`} unit="₦" min={0} value={String(t.threshold)} onChange={(v) => edit(i, { threshold: Number(v) })} />
            <NumberInput label={`${t.text || "Tier"}: discount`} unit="%" min={0} max={100} step={0.1} value={String(t.percentage)} onChange={(v) => edit(i, { percentage: Number(v) })} />
            <label className="flex flex-col gap-1 text-sm sm:col-span-3">
              <span>What the customer reads</span>
              <Input value={t.indicator} onChange={(e) => edit(i, { indicator: e.target.value })} />
            </label>
            <div className="flex items-end">
              <Button variant="outline" size="sm" disabled={tiers.length <= 1} onClick={() => remove(i)}>
                Remove
              </Button>
            </div>
          </fieldset>
        ))}
        <Button variant="outline" size="sm" onClick={() => add(() => ({ icon: "⭐", text: "New tier", indicator: "", percentage: 0, threshold: 0 }))}>
          Add a tier
        </Button>
        <Preview>
          {[...tiers]
            .sort((a, b) => a.threshold - b.threshold)
            .map((t) => `${t.text}: ${t.percentage}% off from ${naira(t.threshold)} deposited`)
            .join(" · ")}
        </Preview>
      </ActionForm>
    </Panel>
  );
}

/**
 * Issue 46 (decision 074): resellers' wholesale tiers by 30-day spend. The server refuses a list without a ₦0 tier, two
 * tiers at one threshold, or a higher tier giving less off (400, nothing saved); the preview reads them in order.
 */
export function WholesaleTiersForm({ value, save }: { value: WholesaleTier[]; save: Save }) {
  const { items: tiers, edit, remove, add } = useListDraft(value);
  return (
    <Panel title="Wholesale tiers (resellers, by 30-day spend)">
      <ActionForm label="Save" testId="setting-wholesale_tiers" onSubmit={(reason) => save({ key: "wholesale_tiers", value: tiers, reason })}>
        {tiers.map((t, i) => (
          <fieldset key={i} className="grid gap-2 rounded-lg border border-slate-200 p-3 sm:grid-cols-4 dark:border-slate-700">
            <legend className="px-1 text-xs text-slate-600 dark:text-slate-400">Wholesale tier {i + 1}</legend>
            <label className="flex flex-col gap-1 text-sm">
              <span>Name</span>
              <Input value={t.name} required onChange={(e) => edit(i, { name: e.target.value })} />
            </label>
            <NumberInput label={`${t.name || "Tier"}: from 30-day spend`} unit="₦" min={0} value={String(t.threshold)} onChange={(v) => edit(i, { threshold: Number(v) })} />
            <NumberInput label={`${t.name || "Tier"}: discount`} unit="%" min={0} max={50} step={0.1} value={String(t.percentage)} onChange={(v) => edit(i, { percentage: Number(v) })} />
            <div className="flex items-end">
              <Button variant="outline" size="sm" disabled={tiers.length <= 1} onClick={() => remove(i)}>
                Remove
              </Button>
            </div>
          </fieldset>
        ))}
        <Button variant="outline" size="sm" onClick={() => add(() => ({ name: "New tier", threshold: 0, percentage: 0 }))}>
          Add a tier
        </Button>
        <Preview>
          {[...tiers]
            .sort((a, b) => a.threshold - b.threshold)
            .map((t) => `${t.name}: ${t.percentage}% off from ${naira(t.threshold)} spent in 30 days`)
            .join(" · ")}
          . A reseller pays the better of this and its deposit tier.
        </Preview>
      </ActionForm>
    </Panel>
  );
}

function LinksForm({ value, save }: { value: SiteLink[]; save: Save }) {
  const { items: links, edit, remove, add } = useListDraft(value);
  return (
    <Panel title="Links">
      <ActionForm label="Save" testId="setting-links" onSubmit={(reason) => save({ key: "links", value: links, reason })}>
        <p className="text-xs text-slate-600 dark:text-slate-400">The first is the community channel, the second the dashboard's support tile.</p>
        {links.map((l, i) => (
          <div key={i} className="grid grid-cols-1 items-end gap-2 sm:grid-cols-[1fr_2fr_auto]">
            <label className="flex flex-col gap-1 text-sm">
              <span>Name</span>
              <Input value={l.name ?? ""} onChange={(e) => edit(i, { name: e.target.value })} />
            </label>
            <label className="flex flex-col gap-1 text-sm">
              <span>Address (https://…)</span>
              <Input type="url" value={l.link} required onChange={(e) => edit(i, { link: e.target.value })} />
            </label>
            <Button variant="outline" size="sm" onClick={() => remove(i)}>
              Remove
            </Button>
          </div>
        ))}
        <Button variant="outline" size="sm" onClick={() => add((list) => ({ id: Math.max(0, ...list.map((l) => l.id ?? 0)) + 1, name: "", link: "https://" }))}>
          Add a link
        </Button>
      </ActionForm>
    </Panel>
  );
}

/** An ad's colour: a palette of named swatches (the carousel's own colours), never a class name to type. */
function ColourPalette({ legend, value, onChange }: { legend: string; value: string; onChange: (bg: string) => void }) {
  const name = useId();
  return (
    <fieldset className="sm:col-span-2">
      <legend className="mb-1 text-sm">{legend}</legend>
      <div className="flex flex-wrap gap-2">
        {AD_BACKGROUNDS.map((bg) => (
          <label key={bg} className="flex cursor-pointer items-center gap-1 rounded-md border border-slate-200 px-2 py-1 text-xs has-[:checked]:border-blue-600 has-[:checked]:ring-2 has-[:checked]:ring-blue-600 dark:border-slate-700">
            <input type="radio" name={name} value={bg} checked={value === bg} onChange={() => onChange(bg)} className="sr-only" />
            <span aria-hidden="true" className="inline-block h-4 w-4 rounded" style={{ background: AD_COLOUR_SWATCH[bg] }} />
            {AD_COLOUR_NAMES[bg] ?? bg}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/** Ads: edit each slide, see the customer's carousel update as you type, save with a reason. */
function AdsEditor({ value, save }: { value: Ad[]; save: Save }) {
  const [ads, setAds] = useState<Ad[]>(value);
  useEffect(() => setAds(value), [value]);
  const edit = (i: number, patch: Partial<Ad>) => setAds((list) => list.map((a, j) => (j === i ? { ...a, ...patch } : a)));
  return (
    <Panel title="Ads (live preview below)">
      <div className="flex flex-col gap-4">
        {ads.map((ad, i) => (
          <fieldset key={ad.id} className="grid gap-2 rounded-lg border border-slate-200 p-3 sm:grid-cols-2 dark:border-slate-700">
            <legend className="px-1 text-xs text-slate-600 dark:text-slate-400">Ad {i + 1}</legend>
            <label className="flex flex-col gap-1 text-sm sm:col-span-2">
              <span>Text</span>
              <Input aria-label={`Ad ${i + 1} text`} value={ad.content} onChange={(e) => edit(i, { content: e.target.value })} />
            </label>
            <label className="flex flex-col gap-1 text-sm">
              <span>Image (a path on this site or https://)</span>
              <Input value={ad.url} onChange={(e) => edit(i, { url: e.target.value })} />
            </label>
            <label className="flex flex-col gap-1 text-sm">
              <span>Opens (a page of the app, e.g. /#/sms/1)</span>
              <Input value={ad.link} onChange={(e) => edit(i, { link: e.target.value })} />
            </label>
            <ColourPalette legend={`Ad ${i + 1} colour`} value={ad.bg} onChange={(bg) => edit(i, { bg })} />
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
          <p className="mb-1 text-xs text-slate-600 dark:text-slate-400">Preview: what customers will see</p>
          <AdsCarousel preview={ads} />
        </div>
        <ActionForm label="Publish ads" testId="ads-form" onSubmit={(reason) => save({ key: "ads", value: ads, reason })} />
      </div>
    </Panel>
  );
}

/** The upstreams an order of each provider is bought from, in order (issue 32); one line per country that differs. */
type SmsRoutes = Record<string, { upstreams: string[]; countries?: Record<string, string[]> }>;
const upstreamList = (text: string) =>
  text
    .split(",")
    .map((u) => u.trim())
    .filter(Boolean);

function RoutesForm({ value, save }: { value: SmsRoutes; save: Save }) {
  const shown = (v: SmsRoutes) =>
    Object.entries(v).map(([provider, r]) => ({
      provider,
      upstreams: r.upstreams.join(", "),
      countries: Object.entries(r.countries ?? {})
        .map(([country, list]) => `${country}: ${list.join(", ")}`)
        .join("\n"),
    }));
  const [rows, setRows] = useState(() => shown(value));
  useEffect(() => setRows(shown(value)), [value]);
  const next: SmsRoutes = Object.fromEntries(
    rows.map((r) => {
      const countries = Object.fromEntries(
        r.countries
          .split("\n")
          .map((line) => line.split(":"))
          .filter((parts) => parts.length === 2 && parts[0].trim() !== "")
          .map(([country, list]) => [country.trim(), upstreamList(list)]),
      );
      return [r.provider, { upstreams: upstreamList(r.upstreams), ...(Object.keys(countries).length ? { countries } : {}) }];
    }),
  );
  const set = (i: number, field: "upstreams" | "countries", text: string) => setRows(rows.map((r, j) => (j === i ? { ...r, [field]: text } : r)));
  return (
    <Panel title="SMS routes: which upstream serves each provider">
      <ActionForm label="Save" testId="setting-sms_routes" onSubmit={(reason) => save({ key: "sms_routes", value: next, reason })}>
        <p className="text-sm text-slate-600 dark:text-slate-300">Upstreams: daisysms, smsman, herosms, grizzly. The first is tried first; one without a key is skipped.</p>
        {rows.map((r, i) => (
          <div key={r.provider} className="flex flex-col gap-2">
            <label className="flex flex-col gap-1 text-sm">
              <span>{r.provider} SMS: upstreams in order (comma-separated)</span>
              <Input value={r.upstreams} onChange={(e) => set(i, "upstreams", e.target.value)} />
            </label>
            <label className="flex flex-col gap-1 text-sm">
              <span>{r.provider} SMS: countries with another order (one per line, country id: upstreams)</span>
              <textarea
                className="min-h-16 w-full rounded-lg border border-slate-300 bg-white p-2 text-sm dark:border-slate-700 dark:bg-slate-900"
                value={r.countries}
                onChange={(e) => set(i, "countries", e.target.value)}
              />
            </label>
          </div>
        ))}
        <Preview>
          {Object.entries(next)
            .map(([provider, r]) => `${provider} SMS is bought from ${r.upstreams.join(", then ") || "?"}${r.countries ? ` (${Object.keys(r.countries).length} countries differ)` : ""}`)
            .join("; ")}
          . A purchase moves to the next upstream only at the price the customer was charged or lower.
        </Preview>
      </ActionForm>
    </Panel>
  );
}

/** Activations one account of an upstream may hold at once, where ours differs from the documented limit (issue 30). */
function SlotLimitsForm({ value, save }: { value: Record<string, number | null>; save: Save }) {
  const shown = (v: Record<string, number | null>) => Object.entries(v).map(([k, n]): [string, string] => [k, n === null ? "" : String(n)]);
  const [rows, setRows] = useState<[string, string][]>(() => shown(value));
  useEffect(() => setRows(shown(value)), [value]);
  const limits = Object.fromEntries(rows.filter(([k]) => k.trim() !== "").map(([k, v]) => [k.trim(), v.trim() === "" ? null : Number(v)]));
  return (
    <Panel title="Upstream slot limits">
      <ActionForm label="Save" testId="setting-upstream_slot_limits" onSubmit={(reason) => save({ key: "upstream_slot_limits", value: limits, reason })}>
        <RecordRows rows={rows} setRows={setRows} nameLabel="Upstream" unit="numbers at once per account" />
        <Preview>
          {Object.keys(limits).length
            ? Object.entries(limits)
                .map(([k, v]) => (v === null ? `${k}: no limit` : `${k}: at most ${v} waiting numbers per account`))
                .join("; ") + "."
            : "Each upstream's documented limit applies (DaisySMS: 20 per account)."}
        </Preview>
      </ActionForm>
    </Panel>
  );
}

/** A setting this page has no form for yet (one added later): its JSON, still validated by the server's schema. */
function JsonSettingForm({ name, value, save }: { name: SettingKey; value: unknown; save: Save }) {
  const [json, setJson] = useState(() => JSON.stringify(value, null, 2));
  useEffect(() => setJson(JSON.stringify(value, null, 2)), [value]);
  return (
    <Panel title={name}>
      <ActionForm
        label="Save"
        testId={`setting-${name}`}
        onSubmit={(reason) => {
          try {
            return save({ key: name, value: JSON.parse(json), reason });
          } catch {
            return Promise.reject(new Error("The value is not valid JSON."));
          }
        }}
      >
        <textarea
          aria-label={`${name} (JSON)`}
          className="min-h-40 w-full rounded-lg border border-slate-300 bg-white p-2 font-mono text-xs dark:border-slate-700 dark:bg-slate-900"
          value={json}
          onChange={(e) => setJson(e.target.value)}
        />
      </ActionForm>
    </Panel>
  );
}

/** Prices and content: every operator setting as a form, each change audited with the value it replaced (history below). */
export default function PricesPage() {
  const q = useSettings();
  // The key is one of the settings' names (a plain word), and the answer differs by status (200 stored, 202 held).
  const change = useAdminChange(async ({ key, value, reason }: Change) => {
    const res = await admin.settings[":key"].$patch({ param: { key }, json: { value, reason } });
    return res.json();
  });
  const save = (c: Change) => change.mutateAsync(c);
  if (!q.data) return <Loading error={q.error} />;
  const { settings, history } = q.data;
  const special = new Set(["ads", "tiers", "links", "upstream_floors", "sms_price_guard", "sms_routes", "upstream_slot_limits", "telegram_bot", "wholesale_tiers"]);
  return (
    <>
      <h1 className="text-xl font-semibold">Prices and content</h1>
      <AdsEditor value={settings.ads ?? []} save={save} />
      <div className="grid gap-4 md:grid-cols-2">
        {Object.entries(settings)
          .flatMap(([k, v]) => (isSettingKey(k, settings) && !special.has(k) ? [[k, v] as const] : []))
          .map(([k, v]) =>
            NUMBER_FORMS[k] ? (
              <NumberSettingForm key={k} name={k} form={NUMBER_FORMS[k]} value={v} save={save} />
            ) : (
              <JsonSettingForm key={k} name={k} value={v} save={save} />
            ),
          )}
        <PriceGuardForm value={settings.sms_price_guard} save={save} />
        <FloorsForm value={settings.upstream_floors} save={save} />
        <RoutesForm value={settings.sms_routes} save={save} />
        <SlotLimitsForm value={settings.upstream_slot_limits} save={save} />
        <TelegramBotForm value={settings.telegram_bot} save={save} />
        <LinksForm value={settings.links} save={save} />
      </div>
      <TiersForm value={settings.tiers} save={save} />
      <WholesaleTiersForm value={settings.wholesale_tiers} save={save} />
      <Panel title="History">
        <Table
          label="Settings history"
          head={["When", "Who", "Setting", "Before", "After", "Why"]}
          rows={history.map((h: AdminAuditRow) => {
            const key = fieldsOf(h.detail).get("key");
            const { before, after } = readableChange(h);
            return [
              when(h.createdAt),
              h.actor,
              h.subject ?? (typeof key === "string" ? key : ""),
              <span key="b" className="block max-w-sm whitespace-pre-line break-words text-xs">{before}</span>,
              <span key="a" className="block max-w-sm whitespace-pre-line break-words text-xs">{after}</span>,
              h.reason ?? "",
            ];
          })}
          empty="No change recorded yet."
        />
      </Panel>
    </>
  );
}
