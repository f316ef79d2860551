/** The guided tour's five steps and its storage flags (spec: dashboardTourCompleted, userFirstVisit). */

export type TourStep = { target: string; title: string; body: string };

export const TOUR_STEPS: TourStep[] = [
  { target: "balance", title: "Wallet balance", body: "Your wallet balance lives here. Tap the eye to show or hide it, and Fund Wallet to top up." },
  { target: "purchase", title: "Purchase numbers", body: "Buy a number for one verification code in Receive SMS: pick a country and a service." },
  { target: "rent", title: "Rent numbers", body: "Keep a number for an hour, a day, a week or a month with Rent Number." },
  { target: "referral", title: "Referral programme", body: "Copy your referral link and share it. Friends who sign up through it are linked to you." },
  { target: "history", title: "Transaction history", body: "Every deposit, purchase and refund shows here. Filter by status to find one quickly." },
];

export const TOUR_COMPLETED_KEY = "dashboardTourCompleted";
export const FIRST_VISIT_KEY = "userFirstVisit";
export const TOUR_AUTO_OPEN_DELAY_MS = 1000;

/** Auto-open only when neither flag exists: a finished tour or any earlier visit keeps it closed. */
export function shouldAutoOpenTour(storage: Storage = localStorage): boolean {
  return storage.getItem(TOUR_COMPLETED_KEY) === null && storage.getItem(FIRST_VISIT_KEY) === null;
}
