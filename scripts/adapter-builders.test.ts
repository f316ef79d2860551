import { describe, expect, it } from "vitest";
import { ADAPTER_BUILDERS, adapterBuilds } from "./adapter-builders";

describe("no adapter built in a service (scripts/lint.ts, decision 050)", () => {
  it("refuses each builder imported by a service, also among other names and split over lines", () => {
    for (const name of ADAPTER_BUILDERS) {
      const text = `import { a,\n  ${name} } from "../../providers/x/select";\nconst y = 1;`;
      const problems = adapterBuilds("worker/services/sms/x.ts", text);
      expect(problems).toHaveLength(1);
      expect(problems[0]).toMatch(new RegExp(`^worker/services/sms/x\\.ts:1: imports the adapter builder ${name}`));
    }
    expect(adapterBuilds("worker/services/funding/x.ts", `import { createSquadClient } from "../../providers/payments/squad";`)).toHaveLength(1);
  });

  it("refuses constructing an adapter in a service", () => {
    const problems = adapterBuilds("worker/services/rent/x.ts", "const a = 1;\nconst p = new SmsManRentProvider({ baseUrl });");
    expect(problems).toEqual([expect.stringMatching(/^worker\/services\/rent\/x\.ts:2: constructs the adapter SmsManRentProvider/)]);
  });

  it("lets services import types, errors and helpers from providers, and leaves tests and the container alone", () => {
    const text = [
      `import type { SmsProvider } from "../../providers/sms/types";`,
      `import { SmsProviderError, smsFault } from "../../providers/sms/types";`,
      `import { isSmsUpstream } from "../../providers/sms/upstreams";`,
      `const e = new SmsProviderError("x");`,
    ].join("\n");
    expect(adapterBuilds("worker/services/sms/x.ts", text)).toEqual([]);
    const building = `import { smsUpstreamFor } from "./providers/sms";\nnew SquadClient();`;
    expect(adapterBuilds("worker/container.ts", building)).toEqual([]);
    expect(adapterBuilds("worker/services/sms/x.test.ts", building)).toEqual([]);
  });
});
