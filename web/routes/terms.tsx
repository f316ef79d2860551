import { useEffect, type ReactNode } from "react";
import { PublicPage } from "../components/layout/public-page";
import { PRODUCT_NAME } from "../components/layout/logo";
import { useAppSearch } from "../components/layout/app-link";
import { useDocumentTitle } from "../components/layout/logo";

// The spec's anchors. With hash routing "#contact" would be read as a route, so the contents jump by scrolling
// to the section's id, and a link can open a section directly with ?section=<id> (e.g. #/terms/1?section=contact).
const SECTIONS: { id: string; title: string; body: ReactNode }[] = [
  {
    id: "definitions",
    title: "Definitions",
    body: (
      <ul>
        <li>"Service" means the {PRODUCT_NAME} website and the virtual numbers, rentals and wallet it provides.</li>
        <li>"Account" means the profile you create to use the Service, and "Wallet" the naira balance held in it.</li>
        <li>"Number" means a temporary phone number bought to receive a verification SMS or rented for a period.</li>
      </ul>
    ),
  },
  {
    id: "permission-to-use",
    title: "Permission to Use",
    body: (
      <p>
        We give you a personal, revocable, non-transferable permission to use the Service to receive verification messages
        for accounts you are entitled to open, as long as you follow these terms and the law where you live.
      </p>
    ),
  },
  {
    id: "restrictions",
    title: "Restrictions",
    body: (
      <ul>
        <li>No fraud, impersonation, spam, harassment or any activity that breaks a third party's terms or the law.</li>
        <li>No reselling, scraping or automated buying without our written agreement.</li>
        <li>No attempt to probe, overload or get around the Service's security or limits.</li>
      </ul>
    ),
  },
  {
    id: "your-account",
    title: "Your Account",
    body: (
      <p>
        Keep your password secret; you are responsible for what happens in your account. Wallet funds pay only for the
        Service and are not a bank deposit. A purchase that delivers no code is refunded to your wallet automatically.
      </p>
    ),
  },
  {
    id: "compliance",
    title: "Compliance",
    body: (
      <p>
        We may ask for information to meet anti-fraud and payment rules, and may suspend an account that breaks these terms.
        Payments are processed by our card and cryptocurrency partners under their own terms.
      </p>
    ),
  },
  {
    id: "intellectual-property",
    title: "Intellectual Property",
    body: (
      <p>
        The Service, its design and its content belong to {PRODUCT_NAME} and its licensors. Brand names shown for supported
        services belong to their owners and are used only to describe compatibility.
      </p>
    ),
  },
  {
    id: "disclaimer",
    title: "Disclaimer",
    body: (
      <p>
        The Service is provided "as is". Numbers come from upstream carriers and availability changes; we do not promise that
        every service will send a code to every number. Our liability is limited to the amount you paid for the affected order.
      </p>
    ),
  },
  {
    id: "contact",
    title: "Contact",
    body: (
      <p>
        Questions about these terms: write to{" "}
        <a className="font-medium text-blue-700 hover:underline dark:text-blue-400" href="mailto:support@virtualnum.ng">
          support@virtualnum.ng
        </a>
        .
      </p>
    ),
  },
];

function jumpTo(id: string) {
  const heading = document.getElementById(id);
  if (!heading) return;
  heading.scrollIntoView({ behavior: "smooth", block: "start" });
  heading.focus({ preventScroll: true });
}

export default function TermsPage() {
  useDocumentTitle("Terms");
  const { section } = useAppSearch<{ section: string }>();
  useEffect(() => {
    if (typeof section === "string") jumpTo(section);
  }, [section]);

  return (
    <PublicPage title="Terms of Service" updated="1 May 2026">
      <nav aria-label="Contents" className="rounded-xl border border-slate-200 bg-slate-50 p-5 dark:border-slate-800 dark:bg-slate-900">
        <p className="mb-3 text-sm font-semibold uppercase tracking-wide text-slate-600 dark:text-slate-400">Contents</p>
        <ol className="grid gap-2 sm:grid-cols-2">
          {SECTIONS.map((s, i) => (
            <li key={s.id}>
              <a
                href={`#/terms/1?section=${s.id}`}
                onClick={(e) => {
                  e.preventDefault();
                  jumpTo(s.id);
                }}
                className="rounded-sm text-blue-700 hover:underline dark:text-blue-400"
              >
                {i + 1}. {s.title}
              </a>
            </li>
          ))}
        </ol>
      </nav>
      {SECTIONS.map((s, i) => (
        <section key={s.id} aria-labelledby={s.id} className="flex flex-col gap-3">
          <h2 id={s.id} tabIndex={-1}>
            {i + 1}. {s.title}
          </h2>
          {s.body}
        </section>
      ))}
    </PublicPage>
  );
}
