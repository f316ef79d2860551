import { describe, expect, it } from "vitest";
import {
  hexDigestsEqual,
  hmacSha512Hex,
  signNowPaymentsBody,
  sortKeysDeep,
  verifyNowPaymentsSignature,
  verifySquadSignature,
} from "./signatures";

describe("webhook signatures", () => {
  it("computes HMAC-SHA512 as lower-case hex (RFC 4231 test case 2)", async () => {
    expect(await hmacSha512Hex("Jefe", "what do ya want for nothing?")).toBe(
      "164b7a7bfcf819e2e395fbe73b56e0a387bd64222e831fd610270cd7ea2505549758bf75c05a994a6d034f65f8f0e6fdcaeab1a34d4a6b4b636e070a38bce737",
    );
  });

  it("Squad: accepts the digest in either case, refuses tampering, another key, or no header", async () => {
    const raw = '{"Event":"charge_successful","TransactionRef":"R1","Body":{"amount":500000}}';
    const sig = await hmacSha512Hex("sk", raw);
    expect(await verifySquadSignature("sk", raw, sig)).toBe(true);
    expect(await verifySquadSignature("sk", raw, sig.toUpperCase())).toBe(true);
    expect(await verifySquadSignature("sk", raw.replace("500000", "500001"), sig)).toBe(false);
    expect(await verifySquadSignature("other", raw, sig)).toBe(false);
    expect(await verifySquadSignature("sk", raw, undefined)).toBe(false);
    expect(await verifySquadSignature("", raw, sig)).toBe(false);
  });

  it("NOWPayments: signs the key-sorted JSON at every depth, so key order does not matter but values do", async () => {
    const body = { payment_status: "finished", payment_id: 5, fee: { serviceFee: 0.1, currency: "btc", depositFee: 0 } };
    expect(JSON.stringify(sortKeysDeep(body))).toBe('{"fee":{"currency":"btc","depositFee":0,"serviceFee":0.1},"payment_id":5,"payment_status":"finished"}');
    const sig = await signNowPaymentsBody("ipn", body);
    const reordered = JSON.stringify({ fee: { depositFee: 0, currency: "btc", serviceFee: 0.1 }, payment_id: 5, payment_status: "finished" });
    expect(await verifyNowPaymentsSignature("ipn", reordered, sig)).toBe(true);
    expect(await verifyNowPaymentsSignature("ipn", reordered.replace("0.1", "0.2"), sig)).toBe(false);
    expect(await verifyNowPaymentsSignature("ipn", "not json", sig)).toBe(false);
    expect(await verifyNowPaymentsSignature("ipn", reordered, null)).toBe(false);
  });

  it("NOWPayments: accepts an IPN with arrays signed in either documented canonical form, and nothing else", async () => {
    // A body with arrays (payment_extra_ids, a list of fees): the PHP example keeps arrays, the Node sortObject example
    // turns them into index-keyed objects. The same body signed both ways must verify; a tampered one must not.
    const body = { payment_id: 7, payment_status: "finished", payment_extra_ids: [11, 12], fees: [{ z: 1, a: 2 }] };
    expect(JSON.stringify(sortKeysDeep(body))).toBe('{"fees":[{"a":2,"z":1}],"payment_extra_ids":[11,12],"payment_id":7,"payment_status":"finished"}');
    expect(JSON.stringify(sortKeysDeep(body, { arraysAsObjects: true }))).toBe(
      '{"fees":{"0":{"a":2,"z":1}},"payment_extra_ids":{"0":11,"1":12},"payment_id":7,"payment_status":"finished"}',
    );
    const phpForm = await hmacSha512Hex("ipn", JSON.stringify(sortKeysDeep(body)));
    const nodeForm = await hmacSha512Hex("ipn", JSON.stringify(sortKeysDeep(body, { arraysAsObjects: true })));
    expect(phpForm).not.toBe(nodeForm);
    const raw = JSON.stringify(body);
    expect(await verifyNowPaymentsSignature("ipn", raw, phpForm)).toBe(true);
    expect(await verifyNowPaymentsSignature("ipn", raw, nodeForm.toUpperCase())).toBe(true);
    const tampered = raw.replace("[11,12]", "[11,13]");
    expect(await verifyNowPaymentsSignature("ipn", tampered, phpForm)).toBe(false);
    expect(await verifyNowPaymentsSignature("ipn", tampered, nodeForm)).toBe(false);
    expect(await verifyNowPaymentsSignature("other", raw, phpForm)).toBe(false);
  });

  it("NOWPayments: a hostile, deeply nested body is refused, not a stack overflow", async () => {
    const deep = "[".repeat(50_000) + "]".repeat(50_000);
    expect(await verifyNowPaymentsSignature("ipn", deep, "ab".repeat(64))).toBe(false);
    const deepObject = '{"a":'.repeat(40) + "1" + "}".repeat(40);
    expect(await verifyNowPaymentsSignature("ipn", deepObject, "ab".repeat(64))).toBe(false);
  });

  it("compares digests of different lengths as unequal", () => {
    expect(hexDigestsEqual("abcd", "abc")).toBe(false);
    expect(hexDigestsEqual("ABCD", "abcd")).toBe(true);
  });
});
