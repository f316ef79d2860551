import { ArrowRight, BadgePercent, Globe, Headset, Mail, MessageSquareText, ShieldCheck, Smartphone, Zap } from "../components/landing/icons";
import { lazy, Suspense } from "react";
import { AppLink } from "../components/layout/app-link";
import { Logo, PRODUCT_NAME } from "../components/layout/logo";
import { buttonClasses } from "../components/ui/button";
import { useDocumentTitle } from "../components/layout/logo";

// The supported services and countries sit below the fold and bring the tabs and the tile lists with them: the build
// prerenders their markup (web/prerender.tsx waits for this chunk), so the page reads the same without it, and hydration
// picks the section up when its chunk arrives, after the hero is interactive (about 1.5 kB gzip off the first load).
const SupportedSection = lazy(() => import("../components/landing/supported-section"));

const CONTACT_EMAIL = "support@virtualnum.ng";

// The Element Timing attribute (https://wicg.github.io/element-timing/), which React passes through but does not type.
declare module "react" {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars -- a merged declaration repeats React's own type parameter
  interface HTMLAttributes<T> {
    elementtiming?: string;
  }
}

const FEATURES = [
  {
    icon: Smartphone,
    title: "On-demand secondary numbers",
    text: "Get a number the moment you need one and keep your personal line private.",
  },
  {
    icon: Globe,
    title: "Fully virtual, from many countries",
    text: "User-friendly numbers from dozens of countries, nothing to install and no SIM to buy.",
  },
  {
    icon: ShieldCheck,
    title: "Secure account verification",
    text: "Receive one-time codes for the apps you use and verify accounts in seconds.",
  },
];

const REASONS = [
  { icon: MessageSquareText, title: "One-time non-VoIP numbers", text: "Real carrier numbers that services accept for verification." },
  { icon: Zap, title: "Codes in seconds", text: "Your code appears on screen as soon as it arrives; no code, no charge." },
  { icon: BadgePercent, title: "Pay in naira or crypto", text: "Fund your wallet by card, bank transfer or crypto, and earn discount tiers." },
  { icon: Headset, title: "Customer support", text: "Real people ready to help on our chat channel and by email." },
];

/** A phone showing a received code: the hero's illustration, drawn with markup (no image request). */
function HeroPhone() {
  return (
    <div aria-hidden className="relative mx-auto w-64 rotate-2 rounded-[2.5rem] border-8 border-slate-900 bg-white p-4 shadow-2xl dark:border-slate-700 dark:bg-slate-900">
      <div className="mx-auto mb-4 h-1.5 w-16 rounded-full bg-slate-300 dark:bg-slate-700" />
      <p className="text-xs font-semibold uppercase tracking-wide text-slate-600 dark:text-slate-300">+234 801 234 5678</p>
      <div className="mt-3 flex flex-col gap-3">
        <div className="rounded-2xl rounded-tl-sm bg-slate-100 p-3 text-sm text-slate-700 dark:bg-slate-800 dark:text-slate-200">
          Your verification code is <strong className="text-blue-700 dark:text-blue-400">482 913</strong>
        </div>
        <div className="rounded-2xl rounded-tl-sm bg-slate-100 p-3 text-sm text-slate-700 dark:bg-slate-800 dark:text-slate-200">
          Welcome! Your account is verified.
        </div>
        <div className="mt-2 flex items-center justify-between rounded-xl bg-emerald-50 px-3 py-2 text-xs font-semibold text-emerald-700 dark:bg-emerald-950/60 dark:text-emerald-300">
          <span>SMS Received</span>
          <span>0:07</span>
        </div>
      </div>
    </div>
  );
}

export default function HomepagePage() {
  useDocumentTitle(null);
  return (
    <div className="min-h-dvh bg-white text-slate-900 dark:bg-slate-950 dark:text-slate-100">
      <header className="sticky top-0 z-20 border-b border-slate-200/80 bg-white/90 backdrop-blur dark:border-slate-800 dark:bg-slate-950/90">
        <div className="mx-auto flex h-16 max-w-6xl items-center gap-2 px-3 sm:gap-4 sm:px-6">
          {/* Under 380 px the name gives way to Contact Us and Dashboard (it stays for screen readers). */}
          <Logo className="max-[379px]:[&>span]:sr-only" />
          <nav aria-label="Site" className="ml-auto flex items-center gap-1 sm:gap-4">
            <a href={`mailto:${CONTACT_EMAIL}`} className="inline-flex items-center gap-1.5 whitespace-nowrap rounded-md px-1.5 py-1 text-sm sm:px-2 font-medium text-slate-600 hover:text-slate-900 dark:text-slate-300 dark:hover:text-white">
              <Mail className="h-4 w-4 max-[399px]:hidden" aria-hidden />
              Contact Us
            </a>
            <AppLink to="/dashboard/1" className={buttonClasses("default", "sm")}>
              Dashboard
            </AppLink>
          </nav>
        </div>
      </header>

      <main>
        <section aria-labelledby="hero-title" className="relative overflow-hidden">
          <div aria-hidden className="absolute inset-0 -z-10 bg-gradient-to-br from-blue-50 via-white to-sky-50 dark:from-slate-950 dark:via-slate-950 dark:to-blue-950/40" />
          <div className="mx-auto grid max-w-6xl items-center gap-12 px-4 py-16 sm:px-6 md:grid-cols-2 md:py-24">
            <div className="flex flex-col gap-6">
              <span className="inline-flex w-fit items-center gap-2 rounded-full bg-blue-100 px-3 py-1 text-xs font-semibold text-blue-800 dark:bg-blue-950 dark:text-blue-300">
                <ShieldCheck className="h-3.5 w-3.5" aria-hidden /> Non-VoIP numbers · pay in naira
              </span>
              {/* elementtiming: the browser reports when the hero itself was painted (bench/browser.ts, decision 064). */}
              <h1 id="hero-title" elementtiming="hero" className="text-4xl font-extrabold tracking-tight sm:text-5xl">
                Premium Virtual SMS Authentication Solution
              </h1>
              <p className="max-w-lg text-lg text-slate-600 dark:text-slate-300">
                Receive verification codes online with temporary numbers from many countries, or rent a number for an hour, a day,
                a week or a month.
              </p>
              <div className="flex flex-wrap gap-3">
                <AppLink to="/signup/1" className={buttonClasses("default", "lg")}>
                  Sign up
                </AppLink>
                <AppLink to="/login/1" className={buttonClasses("outline", "lg")}>
                  Login
                </AppLink>
              </div>
            </div>
            <HeroPhone />
          </div>
        </section>

        <section aria-labelledby="features-title" className="below-fold py-16">
          <div className="mx-auto max-w-6xl px-4 sm:px-6">
            <h2 id="features-title" className="text-center text-3xl font-bold tracking-tight">
              Everything you need to verify accounts
            </h2>
            <ul className="mt-10 grid gap-6 md:grid-cols-3">
              {FEATURES.map(({ icon: Icon, title, text }) => (
                <li key={title} className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm dark:border-slate-800 dark:bg-slate-900">
                  <span className="flex h-12 w-12 items-center justify-center rounded-xl bg-blue-100 text-blue-700 dark:bg-blue-950 dark:text-blue-300">
                    <Icon className="h-6 w-6" aria-hidden />
                  </span>
                  <h3 className="mt-4 text-lg font-semibold">{title}</h3>
                  <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">{text}</p>
                </li>
              ))}
            </ul>
            <div className="mt-10 flex justify-center">
              <AppLink to="/signup/1" className={buttonClasses("default", "lg")}>
                Get Started <ArrowRight className="h-4 w-4" aria-hidden />
              </AppLink>
            </div>
          </div>
        </section>

        <Suspense fallback={null}>
          <SupportedSection />
        </Suspense>

        <section aria-labelledby="why-title" className="below-fold py-16">
          <div className="mx-auto max-w-6xl px-4 sm:px-6">
            <h2 id="why-title" className="text-center text-3xl font-bold tracking-tight">
              Clients choose us
            </h2>
            <ul className="mt-10 grid gap-6 sm:grid-cols-2">
              {REASONS.map(({ icon: Icon, title, text }) => (
                <li key={title} className="flex gap-4 rounded-2xl p-2">
                  <span className="flex h-11 w-11 shrink-0 items-center justify-center rounded-full bg-emerald-100 text-emerald-700 dark:bg-emerald-950 dark:text-emerald-300">
                    <Icon className="h-5 w-5" aria-hidden />
                  </span>
                  <div>
                    <h3 className="font-semibold">{title}</h3>
                    <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{text}</p>
                  </div>
                </li>
              ))}
            </ul>
          </div>
        </section>
      </main>

      <footer className="border-t border-slate-200 bg-slate-50 dark:border-slate-800 dark:bg-slate-900/50">
        <div className="mx-auto flex max-w-6xl flex-col gap-6 px-4 py-10 sm:flex-row sm:items-center sm:justify-between sm:px-6">
          <div className="flex flex-col gap-2">
            <Logo />
            <p className="text-sm text-slate-600 dark:text-slate-400">
              © {new Date().getFullYear()} {PRODUCT_NAME}. Virtual numbers for verification.
            </p>
          </div>
          <nav aria-label="Footer" className="flex flex-wrap gap-x-6 gap-y-2 text-sm">
            <AppLink to="/status" className="text-slate-600 hover:underline dark:text-slate-300">Status</AppLink>
            <AppLink to="/privacy/1" className="text-slate-600 hover:underline dark:text-slate-300">Privacy</AppLink>
            <AppLink to="/terms/1" className="text-slate-600 hover:underline dark:text-slate-300">Terms</AppLink>
            <a href={`mailto:${CONTACT_EMAIL}`} className="text-slate-600 hover:underline dark:text-slate-300">Contact Us</a>
          </nav>
        </div>
      </footer>
    </div>
  );
}
