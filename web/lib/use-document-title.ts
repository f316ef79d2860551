import { useEffect } from "react";
import { PRODUCT_NAME } from "../components/layout/logo";

/** "Receive SMS · VirtualNum": the browser tab (and history, and screen readers on navigation) names each screen. */
export function documentTitle(screen: string | null): string {
  return screen ? `${screen} · ${PRODUCT_NAME}` : `${PRODUCT_NAME} — Premium Virtual SMS Authentication`;
}

export function useDocumentTitle(screen: string | null): void {
  useEffect(() => {
    document.title = documentTitle(screen);
  }, [screen]);
}
