import { writeFileSync } from "node:fs";
import { register } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";

/**
 * `npm run openapi [-- --out file] [-- --server url]`: the developer API's OpenAPI 3.1 document, generated from the
 * /api/v1 routes' definitions (worker/contract/api-v1.ts) exactly as GET /api/v1/openapi.json serves it, written to a
 * file (or printed) for tools that read a document rather than a server: client generators, linters, mock servers.
 *
 * The routes' module graph is the worker's; two of its imports exist only in workerd (the Durable Object base class
 * and the realtime rooms' library). Generating a document constructs neither, so they are stood in for here, as
 * scripts/openapi-lint.test.ts does with vi.mock.
 */
export const WORKER_ONLY_STUBS = `
const stubs = {
  "cloudflare:workers": "export class DurableObject {} export const env = {};",
  partyserver: "export class Server {} export function getServerByName() { throw new Error('no realtime rooms while writing a document'); } export function routePartykitRequest() { return null; }",
};
export async function resolve(specifier, context, next) {
  if (specifier in stubs) return { url: "data:text/javascript," + encodeURIComponent(stubs[specifier]), shortCircuit: true };
  return next(specifier, context);
}`;

/** The document as the worker serves it for `serverUrl` (its /api/v1 base), as plain JSON. */
export async function openApiDocument(serverUrl: string): Promise<Record<string, unknown>> {
  register(`data:text/javascript,${encodeURIComponent(WORKER_ONLY_STUBS)}`);
  const routes = pathToFileURL(path.resolve(import.meta.dirname, "../worker/routes/api-v1.ts")).href;
  const { v1Document } = (await import(routes)) as { v1Document(serverUrl: string): unknown };
  return JSON.parse(JSON.stringify(v1Document(serverUrl))) as Record<string, unknown>;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const args = process.argv.slice(2);
  const option = (name: string) => {
    const at = args.indexOf(name);
    return at >= 0 ? args[at + 1] : undefined;
  };
  const server = option("--server") ?? "https://numbers.example.ng/api/v1";
  const text = `${JSON.stringify(await openApiDocument(server), null, 2)}\n`;
  const out = option("--out");
  if (out) {
    writeFileSync(out, text);
    console.error(`wrote ${out} (server ${server})`);
  } else process.stdout.write(text);
}
