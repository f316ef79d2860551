import { useRouterState } from "@tanstack/react-router";
import { useDocumentTitle } from "../components/layout/logo";

/** My eSIM and eSIM Plans: the spec's placeholder text, under a heading naming the page. */
export default function ComingSoonPage() {
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  const title = pathname.startsWith("/e-plans") ? "eSIM Plans" : "My eSIM";
  useDocumentTitle(title);
  return (
    <section className="flex min-h-[50vh] flex-col items-center justify-center gap-2">
      <h1 className="text-2xl font-bold tracking-tight">{title}</h1>
      <p className="text-xl text-slate-600 dark:text-slate-300">....Coming soon!</p>
    </section>
  );
}
