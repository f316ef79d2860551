import { PersistQueryClientProvider } from "@tanstack/react-query-persist-client";
import { RouterProvider } from "@tanstack/react-router";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { Toaster } from "sonner";
import { persister, queryClient } from "./query-client";
import { router } from "./router";
import { useTheme } from "./lib/theme";
import "./styles.css";

function App() {
  const { resolved } = useTheme();
  return (
    <PersistQueryClientProvider client={queryClient} persistOptions={{ persister, maxAge: 24 * 3600_000, buster: "v1" }}>
      <RouterProvider router={router} />
      {/* The spec's toast defaults: 4 s, 3 visible, gap 14 px, width 356 px (sonner's default width). */}
      <Toaster theme={resolved} duration={4000} visibleToasts={3} gap={14} richColors closeButton position="top-right" />
    </PersistQueryClientProvider>
  );
}

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
