/**
 * The Content-Security-Policy allows no eval (decision 021). zod compiles object parsers with `new Function` once a probe
 * has shown that eval works, and under a strict policy the probe alone is reported as a violation; its `jitless` mode
 * skips both (the interpreted parsers it falls back to are plenty for forms). zod reads its configuration from this
 * global, shared by every copy of zod on the page (node_modules/zod/v4/core/core.js), and checks it when a schema is
 * built: set it before any schema exists, which is why web/main.tsx imports this module first. Setting the global
 * rather than importing zod's `config` keeps zod out of the landing page's entry chunk (it is 3.8 kB gzip there).
 */
const holder = globalThis as { __zod_globalConfig?: { jitless?: boolean } };
(holder.__zod_globalConfig ??= {}).jitless = true;

export {};
