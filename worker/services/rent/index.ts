/**
 * Rent Number: renting, extending, the inbox and reminders, the rent upstream, and the orders list (SMS orders and rentals together).
 * This file is the room's one entry point: everything outside worker/services/rent/ imports the room from here, and a
 * file inside imports its siblings directly (scripts/lint.ts refuses the rest; docs/decisions/041-domain-rooms.md).
 */
export { ordersRead } from "./order-list";
export { extendOptions, extendRental, rentalExtendable } from "./rental-extension";
export { nextAlarmAt, nextCheckDelayMs, rentalWithInbox, syncRentalMessages } from "./rental-inbox";
export { reminderDueAt, RENTAL_REMINDER_BEFORE_MS } from "./rental-reminder";
export { activeRentalsOf, findRental, lastMessageTimes, ownedRental, refundIfEndedKobo, rentalOrderRowsQuery, rentalsPage, rentalView, toRentalOrderRows } from "./rental-views";
export { cancelRental, endRental, quoteRental, rentalTick, rentCountries, rentNumber, type RentQuote, type RentQuoteRequest, settleRentalNow, sweepRentals } from "./rentals";
export { setAutoRenew } from "./renewals";
export { rental } from "./rental-transitions";
export { activeRentalsQuery, customerRentalsQuery, listRentals, rentalAdminView } from "./admin-views";
export { cheaperRentChoice } from "./rent-alternatives";
