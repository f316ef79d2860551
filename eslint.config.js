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
    // The web reads the API through Hono's typed client only (docs/decisions/065, after 043 and 053): `hc` over the
    // types worker/contract/faces.ts computes from the routes' definitions, each call read with `json` / `text`
    // (web/api/client.ts). So nothing in web/ names an answer's type itself: no cast to a promise of one (the old
    // `apiFetch<T>` / `untypedRequest(...) as Promise<T>`), no double cast, no explicit type argument on a request's
    // reading or a query hook (an inline answer shape).
    files: ["web/**/*.{ts,tsx}"],
    ignores: ["web/**/*.test.{ts,tsx}"],
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector: "TSAsExpression[typeAnnotation.typeName.name='Promise']",
          message: "An answer takes its type from its route's definition (the typed client, decision 065), never from a cast.",
        },
        {
          selector: "TSAsExpression > TSAsExpression.expression",
          message: "No double cast (`as unknown as T`): read the value through a guard, or take its type from the route's definition.",
        },
        {
          selector: "CallExpression[callee.name=/^(json|text|useQuery|useSuspenseQuery|useMutation|queryOptions|useAdminChange)$/][typeArguments]",
          message: "No type argument on a request's reading or a query: the route's definition declares the answer (decision 065).",
        },
        {
          selector: "TSInstantiationExpression[expression.name=/^(json|text)$/]",
          message: "No type argument on a request's reading (`.then(json<T>)`): the route's definition declares the answer (decision 065).",
        },
      ],
    },
  },
  {
    // The data layers read answers as the typed client types them: no type assertion at all (`as const` stays allowed).
    files: ["web/api/**/*.ts", "web/admin/**/*.{ts,tsx}"],
    ignores: ["web/**/*.test.{ts,tsx}"],
    rules: { "@typescript-eslint/consistent-type-assertions": ["error", { assertionStyle: "never" }] },
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
