/**
 * "Skip to main content": the first stop of the Tab key, visible only when focused. The app's addresses are hash
 * routes, so the link moves focus itself instead of following "#content" (which would be read as a route).
 */
export function SkipLink({ target = "content" }: { target?: string }) {
  return (
    <a
      href={`#${target}`}
      onClick={(e) => {
        e.preventDefault();
        const main = document.getElementById(target);
        main?.focus();
        main?.scrollIntoView({ block: "start" });
      }}
      className="sr-only z-[70] rounded-md bg-blue-700 px-4 py-2 text-sm font-semibold text-white focus:not-sr-only focus:fixed focus:left-3 focus:top-3"
    >
      Skip to main content
    </a>
  );
}
