import { describe, expect, it } from "vitest";
import { parseBundleSize } from "./deploy-proof";

describe("deploy proof", () => {
  it("reads the bundle size from wrangler's dry-run output", () => {
    const output = "✨ Read 0 files from the assets directory web/dist\nTotal Upload: 1472.91 KiB / gzip: 266.10 KiB\nYour Worker has access to the following bindings:";
    expect(parseBundleSize(output)).toEqual({ totalKiB: 1472.91, gzipKiB: 266.1 });
    expect(parseBundleSize("✘ [ERROR] Build failed")).toBeNull();
  });
});
