import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

/**
 * The journeys and the bench need Debian's Chromium (never a browser downloaded by a test tool: decision 061, issue 50).
 * `npm test` calls `ensureBrowser()` before any suite starts: when no Chromium is found it installs Debian's
 * `chromium-headless-shell` (the journeys' browser) and `chromium` (the bench's, and the journeys' fallback) from the
 * system's packages where it can (running as root, or with passwordless sudo), saying what it does; otherwise it stops
 * at once with the one command to run.
 */

/** The binaries the journeys may run in, in order of preference (playwright.config.ts E2E_CHROMIUM reads the same). */
export const CHROMIUM_BINARIES = ["/usr/bin/chromium-headless-shell", "/usr/bin/chromium"] as const;
/** Debian's packages that provide them. */
export const CHROMIUM_PACKAGES = ["chromium-headless-shell", "chromium"] as const;
export const INSTALL_COMMAND = `sudo apt-get update && sudo apt-get install -y ${CHROMIUM_PACKAGES.join(" ")}`;

export type BrowserPlan =
  | { kind: "present"; binary: string }
  | { kind: "install"; packages: string[]; sudo: boolean }
  | { kind: "stop"; message: string };

/** What to do, from what is on the machine (pure, so the choice is tested without touching the machine). */
export function planBrowser(facts: {
  chromiumPath?: string;
  present: (binary: string) => boolean;
  isRoot: boolean;
  passwordlessSudo: () => boolean;
  hasAptGet: boolean;
}): BrowserPlan {
  if (facts.chromiumPath) {
    if (facts.present(facts.chromiumPath)) return { kind: "present", binary: facts.chromiumPath };
    return { kind: "stop", message: `CHROMIUM_PATH is set to ${facts.chromiumPath}, which does not exist. Point it at a Chromium binary, or unset it and run:\n  ${INSTALL_COMMAND}` };
  }
  const missing = CHROMIUM_PACKAGES.filter((_, i) => !facts.present(CHROMIUM_BINARIES[i]));
  const found = CHROMIUM_BINARIES.find((binary) => facts.present(binary));
  // The journeys need one of the two; the full browser also serves the bench. Both present: nothing to do.
  if (missing.length === 0 && found) return { kind: "present", binary: found };
  const canInstall = facts.hasAptGet && (facts.isRoot || facts.passwordlessSudo());
  if (canInstall) return { kind: "install", packages: [...missing], sudo: !facts.isRoot };
  // Without a way to install: one binary is enough for the journeys (the bench says so itself when it needs the other).
  if (found) return { kind: "present", binary: found };
  return {
    kind: "stop",
    message:
      `No Chromium found (looked for ${CHROMIUM_BINARIES.join(" and ")}), and this user cannot install packages` +
      `${facts.hasAptGet ? " (not root, no passwordless sudo)" : " (no apt-get)"}. The browser journeys need Debian's Chromium; run:\n  ${INSTALL_COMMAND}\n` +
      `or set CHROMIUM_PATH to a Chromium binary. (Never 'playwright install': it downloads a browser.)`,
  };
}

function aptInstall(packages: string[], sudo: boolean): boolean {
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  const apt = (args: string[]) => {
    const [cmd, argv] = sudo ? ["sudo", ["-n", "apt-get", ...args]] : ["apt-get", args];
    return spawnSync(cmd, argv, { stdio: ["ignore", "ignore", "inherit"], env }).status === 0;
  };
  // Straight from the package lists the machine has; only if that fails, fresh lists first.
  const install = (names: string[]) => apt(["install", "-y", "-qq", ...names]) || (apt(["update", "-qq"]) && apt(["install", "-y", "-qq", ...names]));
  return install(packages);
}

/** Finds Chromium or installs it; exits the process with the command to run when it can do neither. Returns the binary. */
export function ensureBrowser(): string {
  const plan = planBrowser({
    chromiumPath: process.env.CHROMIUM_PATH,
    present: existsSync,
    isRoot: process.getuid?.() === 0,
    passwordlessSudo: () => spawnSync("sudo", ["-n", "true"], { stdio: "ignore" }).status === 0,
    hasAptGet: spawnSync("apt-get", ["--version"], { stdio: "ignore" }).status === 0,
  });
  if (plan.kind === "present") return plan.binary;
  if (plan.kind === "stop") {
    console.error(`\n✖ ${plan.message}`);
    process.exit(1);
  }
  const t0 = Date.now();
  console.log(`\n▶ installing Debian's ${plan.packages.join(" and ")} for the browser journeys (apt-get${plan.sudo ? " through sudo" : ""}; about a minute)`);
  // The headless shell only saves CPU (decision 061): when it alone cannot be installed, the full browser still runs the journeys.
  const installed = aptInstall(plan.packages, plan.sudo) || plan.packages.filter((name) => aptInstall([name], plan.sudo)).length > 0;
  const binary = CHROMIUM_BINARIES.find((candidate) => existsSync(candidate));
  if (!installed || !binary) {
    console.error(`\n✖ apt-get could not install ${plan.packages.join(" ")}. Run it by hand and start again:\n  ${INSTALL_COMMAND}`);
    process.exit(1);
  }
  console.log(`✔ ${binary} installed (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
  return binary;
}
