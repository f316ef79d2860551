import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render } from "@testing-library/react";
import type { ReactNode } from "react";
import { vi } from "vitest";

/**
 * A fetch for web unit tests that answers from a script: `answers["GET /api/x"]` is a queue of answers for that method
 * and path (an unscripted call gets `{}` with 200), `calls` records every "METHOD /path" asked, in order, and `bodies`
 * (when given) every JSON body sent, in order.
 */
export type Answer = () => Promise<Response>;
export type FetchScript = { answers: Record<string, Answer[]>; calls: string[]; bodies?: unknown[] };

export const json = (status: number, body: unknown): Answer => () => Promise.resolve(new Response(JSON.stringify(body), { status }));

/** Empties the script and stubs the global fetch with it (undo with vi.unstubAllGlobals in afterEach). */
export function installScriptedFetch(script: FetchScript): void {
  script.calls.length = 0;
  script.bodies?.splice(0);
  for (const key of Object.keys(script.answers)) delete script.answers[key];
  vi.stubGlobal(
    "fetch",
    vi.fn((input: RequestInfo | URL, init?: RequestInit) => {
      const key = `${init?.method ?? "GET"} ${new URL(String(input), "http://x").pathname}`;
      script.calls.push(key);
      if (init?.body) script.bodies?.push(JSON.parse(String(init.body)));
      const next = script.answers[key]?.shift();
      return next ? next() : Promise.resolve(new Response("{}", { status: 200 }));
    }),
  );
}

/** Renders inside a fresh QueryClient that never retries, so a scripted failure shows at once. */
export function renderWithQuery(ui: ReactNode): void {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  render(<QueryClientProvider client={client}>{ui}</QueryClientProvider>);
}
