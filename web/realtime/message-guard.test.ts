import { describe, expect, it } from "vitest";
import { realtimeMessageSchema } from "../../schema/realtime";
import { asRealtimeMessage } from "./messages";

// The web's light guard must accept exactly what the server's zod union accepts, for every kind.
const valid = [
  { kind: "toast", type: "info", message: "Hello" },
  { kind: "payment.credited", paymentId: "ref1", amount: 5000, balance: 5000 },
  { kind: "payment.failed", paymentId: "ref1", status: "failed", message: "Transaction not successful" },
  { kind: "sms.code", orderId: "o1", code: "123456", number: "+15550001" },
  { kind: "sms.ended", orderId: "o1", status: "timeout", refunded: true, message: "⏰ Timeout: No code received" },
  { kind: "rental.sms", rentalId: "r1", sender: "WhatsApp", text: "Your code is 1", code: "1" },
  { kind: "rental.ended", rentalId: "r1", status: "ended", refunded: false },
  { kind: "balance.changed", balance: 12.5 },
  { kind: "subaccount.changed", subaccountId: "sub_1", externalId: "tg-1", change: "frozen" },
  { kind: "subaccount.changed", subaccountId: "sub_1", externalId: "tg-1", change: "transfer", transfer: { id: "str_1", direction: "in", reason: "transfer", amount: 20 } },
];

describe("realtime message guard", () => {
  it("accepts every kind the server's schema accepts", () => {
    for (const message of valid) {
      expect(realtimeMessageSchema.safeParse(message).success).toBe(true);
      expect(asRealtimeMessage(message)).toEqual(message);
    }
  });

  it("drops what the server's schema refuses", () => {
    const invalid = [
      null,
      "text",
      { kind: "nope" },
      { kind: "toast", type: "shout", message: "x" },
      { kind: "payment.credited", paymentId: "ref1", amount: "5000", balance: 1 },
      { kind: "sms.code", orderId: "o1", number: "+1" },
      { kind: "subaccount.changed", subaccountId: "sub_1", change: "frozen" },
      { kind: "__proto__" },
    ];
    for (const message of invalid) {
      expect(realtimeMessageSchema.safeParse(message).success).toBe(false);
      expect(asRealtimeMessage(message)).toBeNull();
    }
  });
});
