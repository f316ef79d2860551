import { naira } from "../../../schema/money";
import { formatTimeLeft } from "./time-left";

/** The rental fields the End confirmation reads: the server's own figures for what each way out gives back. */
export type EndChoiceFacts = {
  expires_at?: string | null;
  refund_if_ended?: number | null;
  refund_if_cancelled?: number | null;
};

/**
 * The words of the End rental confirmation. What comes back is the server's figure (refund_if_ended /
 * refund_if_cancelled on the rental), never worked out here, so the screen cannot promise money the server would not pay.
 */
export function endConfirmationText(rental: EndChoiceFacts | undefined, now: number): { title: string; body: string; cancelHint: string | null } {
  const left = formatTimeLeft(rental?.expires_at, now);
  const back = rental?.refund_if_ended ?? 0;
  const title = "End this rental now?";
  const timeLeft = left === "—" || left === "Expired" ? "" : ` It still has ${left} left.`;
  const money =
    back > 0
      ? `${naira(back)} comes back to your wallet.`
      : "No money comes back: the time left is not refunded, and the number stops receiving SMS.";
  const cancel = rental?.refund_if_cancelled;
  const cancelHint =
    cancel != null && cancel > 0 ? `Cancelling instead returns the full ${naira(cancel)}, because no SMS has arrived yet.` : null;
  return { title, body: `${timeLeft.trim()} ${money}`.trim(), cancelHint };
}
