import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";

// Moderate rules issue 18 names as found problems; everything critical or serious fails too.
const ALSO_CHECKED = new Set(["region", "page-has-heading-one", "landmark-one-main", "heading-order"]);

/**
 * Waits until the page has drawn what the last step changed (a new width, a scroll, an opened dialog) and every
 * transition it started (drawer, fade) has finished: two animation frames (media-query listeners and the re-render
 * they schedule run before the second), then the finite CSS animations and transitions, capped at 2 s. It replaced
 * fixed pauses of 50-300 ms that were both slower and, on a loaded machine, no guarantee (decision 030). axeProblems
 * waits for it too: a theme switched just before a scan starts a colour transition, and axe reading the page half-way
 * through it measured a button's text half-changed against its old background (a contrast failure that is not there).
 */
export async function rendered(page: Page) {
  await page.evaluate(async () => {
    await new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve())));
    // Endless animations (a spinner, a skeleton's pulse) never finish, and decorative ones (inside aria-hidden, such as
    // the chat button's three-beat pulse) change nothing a scan or a measurement reads: neither is waited for.
    const decorative = (a: Animation) => a.effect instanceof KeyframeEffect && a.effect.target?.closest('[aria-hidden="true"]') != null;
    const running = document.getAnimations().filter((a) => a.playState === "running" && a.effect?.getTiming().iterations !== Infinity && !decorative(a));
    if (running.length === 0) return;
    await Promise.race([Promise.all(running.map((a) => a.finished.catch(() => undefined))), new Promise((resolve) => setTimeout(resolve, 2000))]);
  });
}

/**
 * axe on the page as it stands, once it has drawn and its transitions have ended: the critical and serious violations
 * (and the moderate ones above), one line each.
 */
export async function axeProblems(page: Page, where: string): Promise<string[]> {
  // Colours are read in their settled state: transitions are off while axe reads the page. Waiting for them
  // (rendered) was not enough: a transition can start after that wait, e.g. a hover Chromium applies when a resized
  // layout moves a button under the still pointer, and axe read a dialog's button 90% of the way between two states
  // (a contrast failure neither state has). The app's CSP allows inline styles (schema/csp.ts), so the tag applies.
  const settled = await page.addStyleTag({ content: "*, *::before, *::after { transition: none !important; }" });
  try {
    await rendered(page);
    return await violationsOf(page, where);
  } finally {
    await settled.evaluate((tag) => (tag as Element).remove());
  }
}

async function violationsOf(page: Page, where: string): Promise<string[]> {
  const results = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"])
    // Sonner's toasts come and go on their own clock; they are checked where a journey raises them.
    .exclude("[data-sonner-toaster]")
    // Only violations: collecting every pass and "incomplete" node costs most of axe's time.
    .options({ resultTypes: ["violations"] })
    // One axe.run() in the page. The default (runPartial in each frame, then finishRun in a new blank tab with axe
    // injected again) exists for cross-origin iframes, which the app never has (its CSP says frame-src 'none'); it
    // cost about 1.1 s more per scan on the 2-core machine and found exactly the same violations (decision 030).
    .setLegacyMode(true)
    .analyze();
  return results.violations
    .filter((v) => v.impact === "critical" || v.impact === "serious" || ALSO_CHECKED.has(v.id))
    .map((v) => `${where}: ${v.id} (${v.impact}) ${v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(" | ")} — ${v.nodes[0]?.failureSummary?.split("\n")[1] ?? ""}`);
}

/**
 * A dialog a journey has open, checked where it stands in both themes and at 1280 and 375 px, without closing it (some,
 * like the SMS code dialog, need a purchase to open). The theme is switched the way web/lib/theme.ts applies it (the
 * `dark` class on <html>); the journey's own theme comes back afterwards, and the viewport goes back to what it was.
 */
export async function axeDialogEverywhere(page: Page, where: string): Promise<string[]> {
  const problems: string[] = [];
  const viewport = page.viewportSize();
  const wasDark = await page.evaluate(() => document.documentElement.classList.contains("dark"));
  for (const dark of [false, true]) {
    await page.evaluate((d) => document.documentElement.classList.toggle("dark", d), dark);
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: 800 });
      problems.push(...(await axeProblems(page, `${where} ${dark ? "dark" : "light"} @${width}`)));
    }
  }
  await page.evaluate((d) => document.documentElement.classList.toggle("dark", d), wasDark);
  if (viewport) await page.setViewportSize(viewport);
  return problems;
}
