/**
 * Upstream misbehaviour for the reliability suite, placed between a real adapter and its protocol simulator: a fault
 * plan looks at each request and answers it badly, or lets it through to the simulator.
 */
export type Fault = "http500" | "timeout" | "html" | "truncated" | "twice";
export const FAULTS: Fault[] = ["http500", "timeout", "html", "truncated", "twice"];
/** The faults after which the upstream did NOT act on the request (twice: it acted, twice). */
export const LOSSY_FAULTS: Fault[] = ["http500", "timeout", "html", "truncated"];

export type Upstream = (request: Request) => Promise<Response>;

/** A plan answers each request with a fault, a reply of its own (a misbehaving upstream), or null to pass it through. */
export type FaultPlan = (request: Request) => Fault | Response | null;

export function faultyUpstream(upstream: Upstream, plan: FaultPlan): Upstream {
  return async (request) => {
    const fault = plan(request);
    if (fault instanceof Response) return fault;
    switch (fault) {
      case null:
        return upstream(request);
      case "http500":
        return new Response("Internal Server Error", { status: 500 });
      case "html":
        return new Response("<html><body><h1>502 Bad Gateway</h1><p>cloudflare</p></body></html>", { status: 200, headers: { "content-type": "text/html" } });
      case "timeout":
        // Hangs like a dead upstream and gives up only when the adapter's deadline aborts the request, as fetch does.
        return new Promise<Response>((_, reject) => {
          const fail = () => reject(request.signal.reason ?? new DOMException("The operation timed out.", "TimeoutError"));
          if (request.signal.aborted) fail();
          else request.signal.addEventListener("abort", fail);
        });
      case "truncated": {
        // The upstream acted (the simulator ran), then the reply was cut in half on the way back.
        const res = await upstream(request);
        const text = await res.text();
        return new Response(text.slice(0, Math.max(1, Math.floor(text.length / 2))), { status: res.status, headers: res.headers });
      }
      case "twice": {
        // A duplicated request (a proxy or client retry): the upstream acts on it twice; we hear the second answer.
        await (await upstream(request.clone())).text();
        return upstream(request);
      }
    }
  };
}
