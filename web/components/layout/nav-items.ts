import { CardSim, Globe, LayoutDashboard, MessageSquareText, PhoneCall, Settings, type LucideIcon } from "lucide-react";

/** The spec's side navigation, in order (section 2). */
export const NAV_ITEMS: { label: string; to: string; icon: LucideIcon }[] = [
  { label: "Dashboard", to: "/dashboard/1", icon: LayoutDashboard },
  { label: "Receive SMS", to: "/sms/1", icon: MessageSquareText },
  { label: "Rent Number", to: "/number/1", icon: PhoneCall },
  { label: "My eSIM", to: "/esim/1", icon: CardSim },
  { label: "eSIM Plans", to: "/e-plans/1", icon: Globe },
  { label: "Settings", to: "/settings/1", icon: Settings },
];
