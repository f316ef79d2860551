import { defineConfig } from "drizzle-kit";

// drizzle-kit only generates SQL here; wrangler applies it (locally and remotely) and the tests read the same files.
export default defineConfig({
  dialect: "sqlite",
  schema: "./worker/db/tables.ts",
  out: "./migrations",
});
