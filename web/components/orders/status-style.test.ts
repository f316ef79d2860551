import { describe, expect, it } from "vitest";
import { orderStatusVariant } from "./status-style";

describe("orderStatusVariant (the spec's badge rule)", () => {
  it.each([
    ["success", "default"],
    ["Successful", "default"],
    ["completed", "default"],
    ["pending", "secondary"],
    ["waiting", "secondary"],
    ["WAITING", "secondary"],
    ["failed", "destructive"],
    ["error", "destructive"],
    ["upstream_error", "destructive"],
    ["used", "outline"],
    ["timeout", "outline"],
    ["cancelled", "outline"],
    ["active", "outline"],
    ["", "outline"],
  ])("%s -> %s", (status, variant) => {
    expect(orderStatusVariant(status)).toBe(variant);
  });

  it("treats a missing status as outline", () => {
    expect(orderStatusVariant(null)).toBe("outline");
    expect(orderStatusVariant(undefined)).toBe("outline");
  });
});
