// @ts-check
import js from "@eslint/js";
import { defineConfig, globalIgnores } from "eslint/config";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

/**
 * The second lint layer (docs/decisions/009-linting.md): general code-quality rules. scripts/lint.ts runs its own
 * architectural rules first, then this config with --max-warnings 0.
 *
 * typescript-eslint's plain `recommended` set, not the type-checked one: a type-aware lint would re-run tsc's
 * program build (tsc -b already runs in `npm test`) and take minutes on two shared cores.
 */
export default defineConfig(
  globalIgnores([
    "**/node_modules/**",
    "web/dist/**",
    "web/dist-e2e-*/**",
    ".wrangler/**",
    "test-results/**",
    "playwright-report/**",
    "migrations/**",
    "bench/results/**",
    // Root dot-files and dot-folders are local tool state and scratch files, not the product.
    ".*",
  ]),
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    linterOptions: { reportUnusedDisableDirectives: "error" },
    rules: {
      // Same convention as tsc's noUnused*: a leading underscore marks a deliberately unused binding
      // (a positional parameter a callback signature requires, a rest-sibling used to omit a key).
      "@typescript-eslint/no-unused-vars": [
        "error",
        {
          argsIgnorePattern: "^_",
          varsIgnorePattern: "^_",
          caughtErrorsIgnorePattern: "^_",
          destructuredArrayIgnorePattern: "^_",
          ignoreRestSiblings: true,
        },
      ],
    },
  },
  {
    // The Worker runs on workerd: Web-platform globals (fetch, crypto, caches ...), no DOM, no Node.
    files: ["worker/**/*.ts"],
    languageOptions: { globals: { ...globals.serviceworker } },
  },
  {
    files: ["schema/**/*.ts"],
    languageOptions: { globals: { ...globals["shared-node-browser"] } },
  },
  {
    files: ["web/**/*.{ts,tsx}"],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // Only the two classic hook rules. The plugin's React Compiler rules (purity, refs, set-state-in-effect ...)
    // judge code for a compiler this app does not use. All of web/, since custom hooks also live in .ts files.
    files: ["web/**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    rules: {
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "error",
    },
  },
  {
    files: [
      "scripts/**/*.ts",
      "bench/**/*.ts",
      "e2e/**/*.ts",
      "*.config.{ts,js}",
      "web/vite.config.ts",
    ],
    languageOptions: { globals: { ...globals.node } },
  },
);
