import { describe, expect, it } from "vitest";
import { catalogueFor, deploymentProviderSet, providerSetFor, sandboxUserIdFor } from "./sandbox-accounts";
import { testServices } from "../../test/services";

describe("provider sets: which upstreams serve a call, chosen in the container (issue 42)", () => {
  it("a sandbox account's set is the simulators' on a live deployment; everyone else's, and no customer's, is the deployment's", () => {
    const live = deploymentProviderSet("live");
    expect(providerSetFor(live, sandboxUserIdFor("owner-1"))).toEqual({ mode: "sandbox", sandboxAccount: true });
    expect(providerSetFor(live, "owner-1")).toEqual({ mode: "live", sandboxAccount: false });
    expect(providerSetFor(live, null)).toEqual({ mode: "live", sandboxAccount: false });
    // A sandbox deployment is the simulators already: a sandbox account there is no different.
    expect(providerSetFor(deploymentProviderSet("sandbox"), sandboxUserIdFor("owner-1"))).toEqual({ mode: "sandbox", sandboxAccount: false });
  });

  it("the container holds the deployment's set; a customer's catalogue is named by its set, the bindings stay the container's own", () => {
    const services = testServices();
    expect(services.providerSet).toEqual({ mode: services.config.providers, sandboxAccount: false });
    const forSandbox = catalogueFor({ ...services, providerSet: deploymentProviderSet("live") }, sandboxUserIdFor("owner-2"));
    expect(forSandbox.providerSet).toEqual({ mode: "sandbox", sandboxAccount: true });
    expect(forSandbox.env).toBe(services.env);
  });
});
