import { describe, expect, expectTypeOf, it } from "vitest";
import { WEBHOOK_EVENT_STATUSES } from "../../schema/api-keys";
import { RENTAL_STATUSES, type RentalStatus } from "../../schema/constants";
import { SMS_ORDER_STATUSES, type SmsOrderStatus } from "../../schema/constants";
import { PAYMENT_STATUSES, type PaymentStatus } from "../../schema/constants";
import { listDeposits, listOrders, listRentals } from "../services/console";
import { createUser, db } from "../test/helpers";
import { payments, rentals, smsOrders, webhookEvents } from "./tables";

/**
 * The state machines' status columns are typed with the schema's status lists (issue 14): a service reading a row gets
 * the status union, not a string, so no `as SmsOrderStatus` cast is needed and a typo in a transition fails tsc.
 * Typed only: drizzle's text enum writes no CHECK, so drizzle-kit generates no migration for it.
 */
describe("status columns", () => {
  it("carry the schema's status lists", () => {
    expect(smsOrders.status.enumValues).toEqual([...SMS_ORDER_STATUSES]);
    expect(rentals.status.enumValues).toEqual([...RENTAL_STATUSES]);
    expect(payments.status.enumValues).toEqual([...PAYMENT_STATUSES]);
    expect(webhookEvents.status.enumValues).toEqual([...WEBHOOK_EVENT_STATUSES]);
    expectTypeOf<(typeof smsOrders.$inferSelect)["status"]>().toEqualTypeOf<SmsOrderStatus>();
    expectTypeOf<(typeof rentals.$inferSelect)["status"]>().toEqualTypeOf<RentalStatus>();
    expectTypeOf<(typeof payments.$inferSelect)["status"]>().toEqualTypeOf<PaymentStatus>();
  });

  it("the console's status filter: a known status filters, one no table can hold matches nothing", async () => {
    const user = await createUser();
    await db().insert(smsOrders).values({
      id: crypto.randomUUID(), userId: user.id, provider: "Swift", countryId: "5", countryName: "USA", serviceId: "wa", serviceName: "WhatsApp", priceKobo: 1_000, status: "used", number: "+1555",
    });
    expect((await listOrders(db(), { status: "used", userId: user.id }, Date.now())).length).toBe(1);
    expect(await listOrders(db(), { status: "waiting", userId: user.id }, Date.now())).toEqual([]);
    expect(await listOrders(db(), { status: "nonsense", userId: user.id }, Date.now())).toEqual([]);
    expect(await listRentals(db(), { status: "nonsense" }, Date.now())).toEqual([]);
    expect(await listDeposits(db(), { status: "nonsense" }, Date.now())).toEqual([]);
  });
});
