import { useRouter, useRouterState } from "@tanstack/react-router";
import { useCallback, type AnchorHTMLAttributes, type Ref } from "react";

// NOTE: web/router.tsx builds its routes through helpers whose `path` is a plain string, so the router's typed `to`
// only knows "/" and the shell. Until that is typed, links and redirects go by the spec's hash paths ("/login/1").

/** A link to an app path (hash history): `<AppLink to="/login/1">`. */
export function AppLink({ to, ref, ...props }: Omit<AnchorHTMLAttributes<HTMLAnchorElement>, "href"> & { to: string; ref?: Ref<HTMLAnchorElement> }) {
  return <a ref={ref} href={`#${to}`} {...props} />;
}

/** Navigates to an app path: `const go = useGo(); go("/dashboard/1")`; resolves once the new route has loaded. */
export function useGo(): (path: string, opts?: { replace?: boolean }) => Promise<void> {
  const router = useRouter();
  return useCallback((path: string, opts?: { replace?: boolean }) => router.navigate({ href: path, replace: opts?.replace }), [router]);
}

/** The current route's parsed search params (validated by the route's validateSearch in web/router.tsx). */
export function useAppSearch<T extends Record<string, unknown>>(): Partial<T> {
  const search: unknown = useRouterState({ select: (state) => state.location.search as unknown });
  return (search ?? {}) as Partial<T>;
}
