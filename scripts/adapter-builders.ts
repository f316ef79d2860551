/**
 * A service never builds an upstream adapter (issue 29, docs/decisions/050-services-container.md): the services
 * container (worker/container.ts) is the one place that turns the bindings into adapters, and a service takes them from
 * it (services.upstreams, or a flow's deps). scripts/lint.ts runs this over worker/services/: a value import of a
 * provider module's builder, or a `new …Provider/Client/Sender(` anywhere in a service, is refused. Types, errors and
 * pure helpers from providers/ (`import type`, SmsProviderError, isSmsUpstream) stay allowed; tests are not checked.
 */
export const ADAPTER_BUILDERS = ["smsProviderFor", "smsUpstreamFor", "rentalProviderFor", "paymentProviders", "emailSenderFor"] as const;

export function adapterBuilds(file: string, text: string): string[] {
  if (!file.startsWith("worker/services/") || /\.test\.ts$/.test(file)) return [];
  const problems: string[] = [];
  const lineOf = (index: number) => text.slice(0, index).split("\n").length;
  const report = (index: number, why: string) => {
    const line = lineOf(index);
    problems.push(`${file}:${line}: ${why}: a service takes its adapters from the services container (worker/container.ts, decision 050)\n    ${text.split("\n")[line - 1]!.trim()}`);
  };
  // Value imports from providers/ (also split over lines); `import type { … }` brings no builder.
  for (const m of text.matchAll(/import\s+(?!type\b)\{([^}]*)\}\s*from\s*["'](?:\.\.\/)+providers\/[^"']*["']/g)) {
    const names = m[1]!.split(",").map((n) => n.trim().replace(/^type\s+/, "").split(/\s+as\s+/)[0]!.trim());
    for (const name of names) {
      if ((ADAPTER_BUILDERS as readonly string[]).includes(name) || /^create\w+Client$/.test(name)) report(m.index!, `imports the adapter builder ${name}`);
    }
  }
  for (const m of text.matchAll(/\bnew\s+(\w+(?:Provider|Client|Sender))\s*\(/g)) report(m.index!, `constructs the adapter ${m[1]}`);
  return problems;
}
