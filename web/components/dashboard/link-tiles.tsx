import { useEffect, useRef } from "react";
import { ChevronRight, Gift, MessagesSquare } from "lucide-react";
import { toast } from "../../lib/toast";
import { refQueryOptions, useLinks } from "../../api/content";
import { useQueryClient } from "@tanstack/react-query";

const tileClasses =
  "group flex w-full items-center gap-4 rounded-xl border border-slate-200 bg-white p-4 text-left shadow-sm transition-colors " +
  "hover:border-blue-300 hover:bg-blue-50/50 focus-visible:outline-2 focus-visible:outline-blue-600 cursor-pointer " +
  "dark:border-slate-800 dark:bg-slate-900 dark:hover:border-blue-800 dark:hover:bg-slate-800/60";

function TileBody({ icon, text, hint }: { icon: React.ReactNode; text: string; hint: string }) {
  return (
    <>
      <span className="flex h-10 w-10 shrink-0 items-center justify-center rounded-full bg-emerald-50 text-emerald-700 dark:bg-emerald-950 dark:text-emerald-300" aria-hidden>
        {icon}
      </span>
      <span className="flex min-w-0 flex-1 flex-col">
        <span className="font-semibold">{text}</span>
        <span className="text-sm text-slate-600 dark:text-slate-400">{hint}</span>
      </span>
      <ChevronRight className="h-5 w-5 text-slate-400 transition-transform group-hover:translate-x-0.5" aria-hidden />
    </>
  );
}

/** Copies GET /api/ref's link; the spec's toasts on success and failure. */
export function ReferralTile() {
  const queryClient = useQueryClient();
  const copy = async () => {
    try {
      // Read through the cache so a second click does not call the server again.
      const link = await queryClient.fetchQuery({ ...refQueryOptions(), staleTime: 5 * 60_000 });
      if (!link) throw new Error("no referral link");
      // The clipboard helper loads on the click: the dashboard's first load does not carry it.
      const { writeClipboard } = await import("../../lib/clipboard");
      await writeClipboard(link);
      toast.success("Link copied to your clipboard!");
    } catch {
      toast.error("Failed to copy code");
    }
  };
  return (
    <button type="button" data-tour="referral" onClick={copy} className={tileClasses}>
      <TileBody icon={<Gift className="h-5 w-5" />} text="Referral Link" hint="Copy your link and invite friends" />
    </button>
  );
}

/** The second link of /api/links; the spec answers a failed fetch with a browser alert (once per failure). */
export function ChannelTile() {
  const links = useLinks();
  const alerted = useRef(false);
  useEffect(() => {
    if (links.isError && !alerted.current) {
      alerted.current = true;
      window.alert("Failed to fetch links");
    }
    if (links.isSuccess) alerted.current = false;
  }, [links.isError, links.isSuccess]);
  const href = links.data?.[1]?.link ?? links.data?.[0]?.link;
  const name = links.data?.[1]?.name ?? "Join our channel";
  if (!href) {
    return (
      <div className={`${tileClasses} cursor-default opacity-70`} aria-busy={links.isPending}>
        <TileBody icon={<MessagesSquare className="h-5 w-5" />} text="Chat channel" hint={links.isPending ? "Loading..." : "Unavailable right now"} />
      </div>
    );
  }
  return (
    <a href={href} target="_blank" rel="noopener noreferrer" className={tileClasses}>
      <TileBody icon={<MessagesSquare className="h-5 w-5" />} text={name} hint="Get updates and help from the community" />
    </a>
  );
}
