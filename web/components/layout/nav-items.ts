import { LayoutDashboard, MessageSquareText, PhoneCall, Settings, Wallet, type LucideIcon } from "lucide-react";

/**
 * The side navigation, in the spec's order (section 2), with two changes from issue 28 (docs/decisions/039): Fund
 * Wallet is an entry of its own (money is one tap away on every signed-in screen), and "My eSIM" / "eSIM Plans" are
 * left out until eSIM exists; their routes (/esim/1, /e-plans/1) stay as the spec's placeholder pages.
 */
export const NAV_ITEMS: { label: string; to: string; icon: LucideIcon }[] = [
  { label: "Dashboard", to: "/dashboard/1", icon: LayoutDashboard },
  { label: "Receive SMS", to: "/sms/1", icon: MessageSquareText },
  { label: "Rent Number", to: "/number/1", icon: PhoneCall },
  { label: "Fund Wallet", to: "/payment/1", icon: Wallet },
  { label: "Settings", to: "/settings/1", icon: Settings },
];
