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
    // The web reads the API through its typed contracts only (docs/decisions/043 and 053): `api(route)` over
    // schema/web-api.ts and `adminApi(route)` over schema/admin-api.ts, both checked against the worker's routes by
    // worker/routes/web-contract.ts. So nothing in web/ names an answer's type itself: no cast to a promise of one (the
    // old `apiFetch<T>` / `untypedRequest(...) as Promise<T>`), no double cast, no explicit type argument on a request
    // or a query hook (an inline answer shape).
    files: ["web/**/*.{ts,tsx}"],
    ignores: ["web/**/*.test.{ts,tsx}"],
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector: "TSAsExpression[typeAnnotation.typeName.name='Promise']",
          message: "An answer takes its type from the contract (api / adminApi over schema/web-api.ts, admin-api.ts), never from a cast (decisions 043, 053).",
        },
        {
          selector: "TSAsExpression > TSAsExpression.expression",
          message: "No double cast (`as unknown as T`): read the value through a guard, or take its type from the contract.",
        },
        {
          selector: "CallExpression[callee.name=/^(api|adminApi|useQuery|useSuspenseQuery|useMutation|queryOptions|useAdminChange)$/][typeArguments]",
          message: "No type argument on a request or a query: the contract declares the answer (schema/web-api.ts, schema/admin-api.ts).",
        },
      ],
    },
  },
  {
    // The data layers read answers as the contract types them: no type assertion at all (`as const` stays allowed).
    // The one assertion that gives an answer its type is web/api/client.ts callRoute, marked there.
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
