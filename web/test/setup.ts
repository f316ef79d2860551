import "@testing-library/dom";
import { cleanup, configure } from "@testing-library/react";
import { afterAll, afterEach, vi } from "vitest";

// The web project runs its files in one jsdom per lane, one after another (isolate: false in vitest.config.ts,
// decision 055): setting up jsdom per file cost ~65 s of the project's ~150 s. This file runs before every test file,
// so every file starts from what a fresh environment would give it, whatever ran before it in that lane.

// Modules: a file that mocks "lib/toast" or "lib/session" leaves every module it imported bound to its mocks (and the
// mock modules themselves cached), so the next file would talk to the previous file's vi.fn()s. Forget every evaluated
// module, the mocked ones included, before this file imports anything (what vitest does per file when isolated; npm
// packages load natively and are not re-evaluated, so this costs little).
forgetEvaluatedModules();

/** The same reset vitest's isolated runs make before each file (vitest/dist utils resetModules(modules, true)). */
function forgetEvaluatedModules() {
  const state = (globalThis as { __vitest_worker__?: { evaluatedModules?: { idToModuleMap: Map<string, EvaluatedNode> } } }).__vitest_worker__;
  const modules = state?.evaluatedModules?.idToModuleMap;
  if (!modules) throw new Error("web/test/setup.ts: vitest's module map moved; update forgetEvaluatedModules (decision 055)");
  for (const [id, node] of modules) {
    if (/\/vitest\/dist\/|vitest-virtual-\w+\/dist|@vitest\/dist/.test(id)) continue;
    node.promise = undefined;
    node.exports = undefined;
    node.evaluated = false;
    node.importers.clear();
  }
}
type EvaluatedNode = { promise?: unknown; exports?: unknown; evaluated: boolean; importers: Set<string> };

// Properties a test file replaces on navigator/document with Object.defineProperty (clipboard stubs, execCommand):
// put the environment's own back after the file.
// (scripts/**/*.test.ts run in the node environment: no DOM to reset there.)
const inJsdom = typeof document !== "undefined";
const ownDescriptors = inJsdom
  ? {
      navigator: { clipboard: Object.getOwnPropertyDescriptor(navigator, "clipboard") },
      document: { execCommand: Object.getOwnPropertyDescriptor(document, "execCommand") },
    }
  : undefined;

// findBy* and waitFor give up after 1 s by default: a screen that draws in 1.2 s on a loaded machine (load 8 on two
// cores, the review queue's first row) then fails although nothing is wrong. They resolve as soon as the element is
// there, so a longer bound costs a passing test nothing; the web project's testTimeout is above it (vitest.config.ts).
configure({ asyncUtilTimeout: 10_000 });

afterEach(() => {
  if (!inJsdom) return;
  // React trees rendered by the test (testing-library registers this itself only with vitest globals on).
  cleanup();
});

afterAll(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
  if (!ownDescriptors) return;
  cleanup();
  document.body.innerHTML = "";
  document.head.innerHTML = "";
  document.documentElement.className = "";
  document.documentElement.removeAttribute("style");
  localStorage.clear();
  sessionStorage.clear();
  window.location.hash = "";
  for (const [target, props] of [
    [navigator, ownDescriptors.navigator],
    [document, ownDescriptors.document],
  ] as const) {
    for (const [name, descriptor] of Object.entries(props)) {
      if (descriptor) Object.defineProperty(target, name, descriptor);
      else Reflect.deleteProperty(target, name);
    }
  }
});
