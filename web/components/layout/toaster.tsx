import { Toaster } from "sonner";
import { useMediaQuery } from "../../lib/use-media-query";
import { useTheme } from "../../lib/theme";
import { useSignalToasterReady } from "../../lib/toast";

function ToasterReady() {
  useSignalToasterReady();
  return null;
}

// Below 600 px sonner stretches a toast across the top of the screen, over the header's menu and the drawer's close
// button (a phone journey could not close the menu while "Welcome onboard" showed): there, toasts rise from the bottom.
const PHONE = "(max-width: 599px)";
// Wider, they stay top right but start below the signed-in header (fixed, h-16 = 64 px) instead of 24 px from the top,
// where "Welcome onboard" sat over the balance, the tier badge and the theme switch. sonner keeps a toast while the
// pointer rests on it, so a customer reaching for the theme switch kept the toast there and the switch under it (a
// journey on a loaded machine: 88 s of clicks landing on the toast).
const BELOW_HEADER = { top: 80, right: 24 };

/** Loaded on demand by web/app-providers.tsx (see web/lib/toast.ts). */
export default function AppToaster() {
  const { resolved } = useTheme();
  const phone = useMediaQuery(PHONE);
  return (
    <>
      {/* The spec's toast defaults: 4 s, 3 visible, gap 14 px, width 356 px (sonner's default width), top right. */}
      <Toaster theme={resolved} duration={4000} visibleToasts={3} gap={14} richColors closeButton position={phone ? "bottom-center" : "top-right"} offset={phone ? undefined : BELOW_HEADER} />
      {/* After the Toaster in the tree, so its effect runs once the Toaster has subscribed to new toasts. */}
      <ToasterReady />
    </>
  );
}
