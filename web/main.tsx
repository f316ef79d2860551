import { RouterProvider } from "@tanstack/react-router";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { router } from "./router";
import "./styles.css";

// The entry holds React, the router and the styles only. Query, its persister and the toaster load with the first
// screen that needs them (web/app-providers.tsx); index.html applies the saved theme before first paint.
createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <RouterProvider router={router} />
  </StrictMode>,
);
