import type { ReferralInvitation } from "../../../schema/accounts";
import { useReferralInvitation } from "../../api/accounts";
import { Alert } from "../ui/alert";

/**
 * What a referral link's sign-up page says (issue 28): who invited the visitor and what each side gets. The reward is
 * the referrer's share of the new customer's first deposit, paid by us: the new customer's prices and deposit do not
 * change, and the page says so rather than promising a gift that does not exist. A reward of 0 is not mentioned.
 */
export function invitationText(invitation: ReferralInvitation): { title: string; detail: string | null } {
  const who = invitation.inviter ?? "A friend";
  const title = `${who} invited you to VirtualNum.`;
  if (invitation.reward_percent <= 0) return { title, detail: null };
  const them = invitation.inviter ?? "they";
  return {
    title,
    detail: `When you make your first deposit, ${them} get${invitation.inviter ? "s" : ""} a bonus of ${invitation.reward_percent}% of it from us. You pay nothing extra: your deposit is credited in full and your prices stay the same.`,
  };
}

/** Shown above the sign-up form when the page was opened from a referral link whose code exists. */
export function ReferralInvitationNotice({ code }: { code: string | undefined }) {
  const invitation = useReferralInvitation(code ?? null);
  if (!invitation.data) return null;
  const { title, detail } = invitationText(invitation.data);
  return (
    <Alert variant="info" data-testid="referral-invitation" className="mb-4">
      <p className="font-semibold">{title}</p>
      {detail ? <p className="mt-1">{detail}</p> : null}
    </Alert>
  );
}
