import { Toaster } from "sonner";
import { useTheme } from "../../lib/theme";
import { useSignalToasterReady } from "../../lib/toast";

function ToasterReady() {
  useSignalToasterReady();
  return null;
}

/** Loaded on demand by web/app-providers.tsx (see web/lib/toast.ts). */
export default function AppToaster() {
  const { resolved } = useTheme();
  return (
    <>
      {/* The spec's toast defaults: 4 s, 3 visible, gap 14 px, width 356 px (sonner's default width). */}
      <Toaster theme={resolved} duration={4000} visibleToasts={3} gap={14} richColors closeButton position="top-right" />
      {/* After the Toaster in the tree, so its effect runs once the Toaster has subscribed to new toasts. */}
      <ToasterReady />
    </>
  );
}
