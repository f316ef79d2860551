import { Copy } from "lucide-react";
import { useEffect, useState } from "react";
import { curlExample, jsExample, readReference, type Operation, type Reference } from "../components/developer/reference";
import { AppLink } from "../components/layout/app-link";
import { useDocumentTitle } from "../components/layout/logo";
import { PublicPage } from "../components/layout/public-page";
import { Alert } from "../components/ui/alert";
import { Badge } from "../components/ui/badge";
import { Button } from "../components/ui/button";
import { Skeleton } from "../components/ui/skeleton";
import { copyText } from "../lib/clipboard";
import { useSessionUser } from "../lib/use-session";
import { DeveloperShare } from "../components/developer/ref-share";

/**
 * #/developers: the JSON API's reference, read from the OpenAPI document the worker generates from its zod schemas
 * (GET /api/v1/openapi.json), so it never drifts from what the server accepts. Public (no sign-in) and a lazy chunk.
 * Example URLs come from the document's server URL, which the worker builds from PUBLIC_URL.
 */
export default function DevelopersPage() {
  useDocumentTitle("API reference");
  const [reference, setReference] = useState<Reference | null>(null);
  const [failed, setFailed] = useState(false);
  const signedIn = useSessionUser() !== null;

  useEffect(() => {
    const controller = new AbortController();
    fetch("/api/v1/openapi.json", { signal: controller.signal, headers: { Accept: "application/json" } })
      .then((res) => (res.ok ? res.json() : Promise.reject(new Error(String(res.status)))))
      .then((doc: Record<string, unknown>) => setReference(readReference(doc)))
      .catch((err: unknown) => {
        if (!controller.signal.aborted) setFailed(Boolean(err));
      });
    return () => controller.abort();
  }, []);

  return (
    <PublicPage title="Developer API reference">
      <p>
        Buy numbers and read SMS codes from your own code, priced in naira. Create a key in{" "}
        <AppLink to="/settings/1" className="font-medium text-blue-700 underline dark:text-blue-400">
          Settings → API
        </AppLink>{" "}
        (<code>sk_test_</code> keys use the sandbox and a free test wallet), then send it as <code>Authorization: Bearer</code>. Every
        POST needs an <code>Idempotency-Key</code>: repeat it when you retry and you are never charged twice. Tools written for
        SMS-Activate or DaisySMS work unchanged at <code>/stubs/handler_api.php</code>. Webhooks are signed as Standard Webhooks
        specifies. The machine-readable document is{" "}
        <a className="font-medium text-blue-700 underline dark:text-blue-400" href="/api/v1/openapi.json">
          openapi.json
        </a>{" "}
        (OpenAPI 3.1).
      </p>
      {failed ? (
        <Alert variant="error">The reference could not be loaded. Check your connection and reload the page.</Alert>
      ) : !reference ? (
        <Skeleton className="h-64 w-full" />
      ) : (
        <>
          <p>
            Base URL: <code data-testid="api-base-url">{reference.baseUrl}</code>
          </p>
          {signedIn ? <DeveloperShare baseUrl={reference.baseUrl} /> : null}
          <nav aria-label="Endpoints">
            <ul>
              {reference.operations.map((op) => (
                <li key={op.id}>
                  <a href={`#/developers`} onClick={(e) => jump(e, op.id)} className="text-blue-700 hover:underline dark:text-blue-400">
                    {/* A long path (/webhook/deliveries/{eventId}/resend) breaks at a phone's width instead of widening the page. */}
                    <code className="break-all">
                      {op.method.toUpperCase()} {op.path}
                    </code>
                  </a>{" "}
                  — {op.summary}
                </li>
              ))}
            </ul>
          </nav>
          {reference.operations.map((op) => (
            <OperationSection key={op.id} reference={reference} op={op} />
          ))}
        </>
      )}
    </PublicPage>
  );
}

/** In-page jumps without touching the hash (the router owns it). */
function jump(e: React.MouseEvent, id: string) {
  e.preventDefault();
  const target = document.getElementById(id);
  target?.scrollIntoView({ block: "start" });
  target?.focus({ preventScroll: true });
}

function OperationSection({ reference, op }: { reference: Reference; op: Operation }) {
  return (
    <section id={op.id} tabIndex={-1} className="flex flex-col gap-3 border-t border-slate-200 pt-6 dark:border-slate-800" data-testid="api-operation">
      <h2 className="flex flex-wrap items-center gap-2">
        <Badge variant={op.method === "get" ? "secondary" : "warning"}>{op.method.toUpperCase()}</Badge>
        <code className="break-all text-lg">{op.path}</code>
      </h2>
      <p className="font-medium text-slate-900 dark:text-white">{op.summary}</p>
      {op.description ? <p>{op.description}</p> : null}
      {op.params.length > 0 ? (
        <FieldTable caption="Parameters" rows={op.params.map((p) => ({ name: p.name, where: p.in, required: p.required, type: p.type, description: p.description }))} />
      ) : null}
      {op.body && op.body.length > 0 ? (
        <FieldTable caption="JSON body" rows={op.body.map((f) => ({ name: f.name, where: "body", required: f.required, type: f.type, description: f.description }))} />
      ) : null}
      <p className="text-sm">
        <span className="font-medium">Answers: </span>
        {op.responses.map((r, i) => (
          <span key={r.status}>
            {i > 0 ? " · " : ""}
            <code>{r.status}</code> {r.description}
          </span>
        ))}
      </p>
      <Snippet label={`curl: ${op.method.toUpperCase()} ${op.path}`} title="curl" code={curlExample(reference, op)} />
      <Snippet label={`JavaScript: ${op.method.toUpperCase()} ${op.path}`} title="JavaScript" code={jsExample(reference, op)} />
    </section>
  );
}

function FieldTable({ caption, rows }: { caption: string; rows: { name: string; where: string; required: boolean; type: string; description?: string }[] }) {
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-left text-sm">
        <caption className="pb-1 text-left font-medium text-slate-900 dark:text-white">{caption}</caption>
        <thead className="text-xs text-slate-600 dark:text-slate-400">
          <tr>
            <th className="py-1 pr-3 font-medium">Name</th>
            <th className="py-1 pr-3 font-medium">In</th>
            <th className="py-1 pr-3 font-medium">Type</th>
            <th className="py-1 font-medium">Notes</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={`${r.where}:${r.name}`} className="border-t border-slate-200 align-top dark:border-slate-800">
              <td className="py-1 pr-3">
                <code>{r.name}</code>
                {r.required ? <span className="text-red-700 dark:text-red-400"> *</span> : null}
              </td>
              <td className="py-1 pr-3">{r.where}</td>
              <td className="py-1 pr-3">
                <code className="break-all">{r.type}</code>
              </td>
              <td className="py-1">{r.description ?? (r.required ? "required" : "optional")}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function Snippet({ label, title, code }: { label: string; title: string; code: string }) {
  return (
    <figure className="flex flex-col gap-1">
      <figcaption className="flex items-center justify-between text-sm font-medium">
        {title}
        <Button variant="ghost" size="sm" aria-label={`Copy ${label}`} onClick={() => void copyText(code, `${title} example copied.`)}>
          <Copy className="size-4" aria-hidden /> Copy
        </Button>
      </figcaption>
      {/* Focusable: a keyboard user can scroll a long line sideways (axe scrollable-region-focusable). */}
      <pre tabIndex={0} aria-label={label} className="overflow-x-auto rounded-md bg-slate-900 p-3 text-xs leading-relaxed text-slate-100">
        <code>{code}</code>
      </pre>
    </figure>
  );
}
