import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent, type ReactNode } from "react";
import { Check, ChevronDown, Search } from "lucide-react";
import { cn } from "../../lib/cn";
import { matchesSearch } from "../../lib/search-match";
import { inputClasses } from "./input";
import { Spinner } from "./spinner";

export type SelectOption = {
  value: string;
  label: string;
  description?: ReactNode;
  disabled?: boolean;
  icon?: ReactNode;
  /** Other words the search finds it by (a service's protocol code, "wa"). */
  keywords?: string[];
};

/** The spec's select defaults: the menu is at most 300 px high and Page Up / Page Down move 5 options. */
const PAGE_SIZE = 5;

/**
 * A single-choice select (the WAI-ARIA select-only / searchable combobox pattern). With `searchable` a filter box opens
 * above the options (country and service pickers with hundreds of entries). Works inside <Field>: it takes the id and
 * aria props Field passes, so the label focuses the trigger.
 */
export function Select({
  id,
  options,
  value,
  onValueChange,
  placeholder = "Select...",
  searchable = false,
  searchPlaceholder = "Search...",
  loading = false,
  loadingText = "Loading...",
  emptyText = "No results found.",
  disabled = false,
  className,
  ...aria
}: {
  id?: string;
  options: SelectOption[];
  value: string | null | undefined;
  onValueChange: (value: string) => void;
  placeholder?: string;
  searchable?: boolean;
  searchPlaceholder?: string;
  loading?: boolean;
  loadingText?: string;
  emptyText?: string;
  disabled?: boolean;
  className?: string;
  "aria-invalid"?: boolean;
  "aria-describedby"?: string;
  "aria-label"?: string;
}) {
  const autoId = useId();
  const triggerId = id ?? `${autoId}-trigger`;
  const listId = `${autoId}-list`;
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState("");
  const [active, setActive] = useState(0);
  const rootRef = useRef<HTMLDivElement>(null);
  const triggerRef = useRef<HTMLButtonElement>(null);
  const searchRef = useRef<HTMLInputElement>(null);
  const listRef = useRef<HTMLUListElement>(null);

  const selected = options.find((o) => o.value === value);
  const filtered = useMemo(() => {
    const q = query.trim();
    return q ? options.filter((o) => matchesSearch(o.label, q, o.keywords)) : options;
  }, [options, query]);

  const openMenu = () => {
    if (disabled || loading) return;
    const index = Math.max(0, options.findIndex((o) => o.value === value));
    setQuery("");
    setActive(index);
    setOpen(true);
  };
  const closeMenu = (refocus = true) => {
    setOpen(false);
    if (refocus) triggerRef.current?.focus();
  };
  const choose = (option: SelectOption | undefined) => {
    if (!option || option.disabled) return;
    onValueChange(option.value);
    closeMenu();
  };

  // Focus the search box (or the list) when the menu opens; close on a click elsewhere.
  useEffect(() => {
    if (!open) return;
    (searchable ? searchRef.current : listRef.current)?.focus();
    const onPointer = (e: PointerEvent) => {
      if (!rootRef.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener("pointerdown", onPointer);
    return () => document.removeEventListener("pointerdown", onPointer);
  }, [open, searchable]);

  // Keep the active option in view while moving with the keyboard.
  useEffect(() => {
    if (!open) return;
    listRef.current?.querySelector(`[data-index="${active}"]`)?.scrollIntoView({ block: "nearest" });
  }, [active, open]);

  const onMenuKeyDown = (e: KeyboardEvent) => {
    const last = filtered.length - 1;
    const moves: Record<string, () => number> = {
      ArrowDown: () => Math.min(last, active + 1),
      ArrowUp: () => Math.max(0, active - 1),
      PageDown: () => Math.min(last, active + PAGE_SIZE),
      PageUp: () => Math.max(0, active - PAGE_SIZE),
      Home: () => 0,
      End: () => last,
    };
    if (e.key in moves && !(searchable && (e.key === "Home" || e.key === "End"))) {
      e.preventDefault();
      setActive(moves[e.key]());
    } else if (e.key === "Enter") {
      e.preventDefault();
      choose(filtered[active]);
    } else if (e.key === "Escape") {
      e.preventDefault();
      e.stopPropagation();
      closeMenu();
    } else if (e.key === "Tab") {
      setOpen(false);
    }
  };

  const activeId = filtered[active] ? `${listId}-opt-${active}` : undefined;

  return (
    <div ref={rootRef} className={cn("relative", className)}>
      <button
        ref={triggerRef}
        id={triggerId}
        type="button"
        role="combobox"
        aria-haspopup="listbox"
        aria-expanded={open}
        aria-controls={open ? listId : undefined}
        aria-invalid={aria["aria-invalid"]}
        aria-describedby={aria["aria-describedby"]}
        aria-label={aria["aria-label"]}
        disabled={disabled}
        // While its options load the list cannot open: say so (screen readers announce it unavailable and busy) rather
        // than ignore the press silently; a journey's click waits for it too (decision 059).
        aria-disabled={loading || undefined}
        aria-busy={loading || undefined}
        onClick={() => (open ? closeMenu(false) : openMenu())}
        onKeyDown={(e) => {
          if (!open && (e.key === "ArrowDown" || e.key === "ArrowUp")) {
            e.preventDefault();
            openMenu();
          }
        }}
        className={cn(inputClasses, "flex items-center justify-between gap-2 text-left cursor-pointer")}
      >
        <span className={cn("flex min-w-0 items-center gap-2", !selected && "text-slate-600 dark:text-slate-400")}>
          {!loading && selected?.icon}
          <span className="truncate">{loading ? loadingText : (selected?.label ?? placeholder)}</span>
        </span>
        {loading ? <Spinner className="h-4 w-4" /> : <ChevronDown className="h-4 w-4 shrink-0 opacity-60" aria-hidden />}
      </button>
      {open ? (
        <div className="absolute z-50 mt-1 w-full overflow-hidden rounded-lg border border-slate-200 bg-white shadow-lg dark:border-slate-700 dark:bg-slate-900">
          {searchable ? (
            <div className="flex items-center gap-2 border-b border-slate-200 px-3 dark:border-slate-700">
              <Search className="h-4 w-4 text-slate-400" aria-hidden />
              <input
                ref={searchRef}
                type="text"
                role="searchbox"
                aria-label={searchPlaceholder}
                aria-controls={listId}
                aria-activedescendant={activeId}
                placeholder={searchPlaceholder}
                value={query}
                onChange={(e) => {
                  setQuery(e.target.value);
                  setActive(0);
                }}
                onKeyDown={onMenuKeyDown}
                className="h-10 w-full bg-transparent text-sm outline-none placeholder:text-slate-500"
              />
            </div>
          ) : null}
          <ul
            ref={listRef}
            id={listId}
            role="listbox"
            tabIndex={-1}
            aria-labelledby={triggerId}
            aria-activedescendant={searchable ? undefined : activeId}
            onKeyDown={searchable ? undefined : onMenuKeyDown}
            className="max-h-[300px] overflow-y-auto p-1 outline-none"
          >
            {filtered.length === 0 ? (
              <li className="px-3 py-2 text-sm text-slate-600 dark:text-slate-400">{emptyText}</li>
            ) : (
              filtered.map((option, index) => {
                const isSelected = option.value === value;
                return (
                  <li
                    key={option.value}
                    id={`${listId}-opt-${index}`}
                    data-index={index}
                    role="option"
                    aria-selected={isSelected}
                    aria-disabled={option.disabled || undefined}
                    onPointerMove={() => setActive(index)}
                    onClick={() => choose(option)}
                    className={cn(
                      "flex cursor-pointer items-center justify-between gap-2 rounded-md px-3 py-2 text-sm",
                      index === active && "bg-slate-100 dark:bg-slate-800",
                      option.disabled && "cursor-not-allowed opacity-50",
                    )}
                  >
                    {option.icon}
                    <span className="flex min-w-0 flex-1 flex-col">
                      <span className="truncate">{option.label}</span>
                      {option.description ? (
                        <span className="text-xs text-slate-600 dark:text-slate-400">{option.description}</span>
                      ) : null}
                    </span>
                    {isSelected ? <Check className="h-4 w-4 shrink-0 text-blue-600 dark:text-blue-400" aria-hidden /> : null}
                  </li>
                );
              })
            )}
          </ul>
        </div>
      ) : null}
    </div>
  );
}
