import { afterEach, describe, expect, it, vi } from "vitest";
import { PBKDF2_ITERATIONS, PBKDF2_MAX_ITERATIONS, hashPassword, needsRehash, parseHash, verifyPassword } from "./password";

describe("password hashing", () => {
  afterEach(() => vi.restoreAllMocks());

  it("stays within the 100,000 PBKDF2 iterations production Workers accept (local workerd does not check)", async () => {
    expect(PBKDF2_ITERATIONS).toBeLessThanOrEqual(100_000);
    expect(PBKDF2_MAX_ITERATIONS).toBeLessThanOrEqual(100_000);
    const deriveBits = vi.spyOn(crypto.subtle, "deriveBits");
    const stored = await hashPassword("correct horse");
    await verifyPassword("correct horse", stored);
    expect(deriveBits).toHaveBeenCalledTimes(2);
    for (const [params] of deriveBits.mock.calls) {
      expect(params).toMatchObject({ name: "PBKDF2", hash: "SHA-256" });
      expect((params as { iterations: number }).iterations).toBeLessThanOrEqual(100_000);
      expect((params as { iterations: number }).iterations).toBe(PBKDF2_ITERATIONS);
    }
  });

  it("stores the algorithm, the iteration count and a per-hash salt with the hash", async () => {
    const a = await hashPassword("same password");
    const b = await hashPassword("same password");
    expect(a).toMatch(/^pbkdf2_sha256\$100000\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
    expect(a).not.toBe(b);
    expect(parseHash(a)?.salt).toHaveLength(16);
    expect(parseHash(a)?.salt).not.toEqual(parseHash(b)?.salt);
  });

  it("verifies the right password and refuses a wrong one", async () => {
    const stored = await hashPassword("s3cret-pass");
    expect(await verifyPassword("s3cret-pass", stored)).toBe(true);
    expect(await verifyPassword("s3cret-pasS", stored)).toBe(false);
    expect(await verifyPassword("", stored)).toBe(false);
  });

  it("verifies hashes made with an older work factor and flags them for re-hashing", async () => {
    const old = await hashPassword("legacy-pass", 1_000);
    expect(await verifyPassword("legacy-pass", old)).toBe(true);
    expect(needsRehash(old)).toBe(true);
    expect(needsRehash(await hashPassword("legacy-pass"))).toBe(false);
  });

  it("refuses to create or try a hash above the ceiling, and garbage", async () => {
    await expect(hashPassword("x", 100_001)).rejects.toThrow(/iterations/);
    const tooStrong = "pbkdf2_sha256$600000$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=";
    expect(await verifyPassword("x", tooStrong)).toBe(false);
    expect(await verifyPassword("x", "test-only-not-a-hash")).toBe(false);
    expect(await verifyPassword("x", "pbkdf2_sha256$100000$%%%$%%%")).toBe(false);
  });
});
