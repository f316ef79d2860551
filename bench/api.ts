/** API cost figures against a running local server (bench/run.ts starts one with D1_METRICS=true). */

export async function register(url: string, tag: string): Promise<{ token: string; userId: string; email: string }> {
  const email = `bench-${tag}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const res = await fetch(`${url}/api/register/`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username: `bench${tag}`, number: "08012345678", email, password: "benchpass123" }),
  });
  if (!res.ok) throw new Error(`register failed: ${res.status} ${await res.text()}`);
  const body = (await res.json()) as { token: string; user: { userId: string } };
  return { token: body.token, userId: body.user.userId, email };
}

/** Funds a user through the sandbox checkout, as a customer would (webhook signed like Squad's, verify call, ledger). */
export async function fund(url: string, token: string, naira: number): Promise<void> {
  const init = await fetch(`${url}/api/initialize-transaction`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: JSON.stringify({ amount: naira, currency: "NGN" }),
  });
  if (!init.ok) throw new Error(`initialize failed: ${init.status} ${await init.text()}`);
  const ref = ((await init.json()) as { data: { data: { transaction_ref: string } } }).data.data.transaction_ref;
  const done = await fetch(`${url}/sandbox/squad/${ref}/complete`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ outcome: "success" }),
  });
  if (!done.ok) throw new Error(`sandbox completion failed: ${done.status}`);
}

/** Requests per second over `seconds` with `connections` concurrent loops (bounded by time and by count). */
export async function throughput(url: string, headers: Record<string, string>, seconds: number, connections: number) {
  const deadline = Date.now() + seconds * 1000;
  let ok = 0;
  let errors = 0;
  const latencies: number[] = [];
  const loop = async () => {
    while (Date.now() < deadline && ok + errors < 200_000) {
      const t0 = performance.now();
      try {
        const res = await fetch(url, { headers });
        await res.arrayBuffer();
        if (res.ok) ok++;
        else errors++;
      } catch {
        errors++;
      }
      latencies.push(performance.now() - t0);
    }
  };
  const started = Date.now();
  await Promise.all(Array.from({ length: connections }, loop));
  const elapsed = (Date.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? 0;
  return { rps: ok / elapsed, errors, p50: pct(0.5), p99: pct(0.99) };
}

export async function roundTrips(url: string, path: string, init: RequestInit = {}): Promise<number> {
  const res = await fetch(`${url}${path}`, init);
  await res.arrayBuffer();
  const header = res.headers.get("x-d1-round-trips");
  if (header === null) throw new Error(`${path}: no x-d1-round-trips header (status ${res.status})`);
  return Number(header);
}
