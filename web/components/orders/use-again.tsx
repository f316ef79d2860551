import { RotateCcw } from "lucide-react";
import { useEffect, useState, type ReactNode } from "react";
import { naira } from "../../../schema/money";
import type { OrderRow, SmsUseAgainQuote } from "../../../schema/sms";
import { ApiError } from "../../api/client";
import { useUseAgainQuote, useUseNumberAgain } from "../../api/sms";
import { formatPhone, formatSeconds } from "../../lib/format";
import { toast } from "../../lib/toast";
import { ShortfallNotice, shortfallFrom } from "../payment/shortfall";
import type { PendingSmsRequest } from "../sms/pending-request";
import { priceChoiceFrom } from "../sms/price-choice";
import { Button } from "../ui/button";
import { Dialog } from "../ui/dialog";
import { LoadError } from "../ui/load-error";
import { Spinner } from "../ui/spinner";

/**
 * "Use this number again" (issue 32, decision 047/048). The button exists only on a row the server marked `use_again`
 * (its upstream documents reactivation, the number got a code, its own window is over, bought within 30 days): where
 * the upstream has no such call there is no button at all, never a disabled one. The click asks first: the price and
 * the usual wait come from the server's quote (GET /api/sms/use-again/:id) and the confirm button says the price it
 * will send; a price that moved in between is the server's 409 PRICE_CHANGED, shown as the new price to confirm again.
 * The new order is an order like any other: the Receive SMS dialog follows it (realtime code, its own refund).
 */
export function useNumberAgainChoice(onStarted: (request: PendingSmsRequest) => void): { action: (order: OrderRow) => ReactNode; dialog: ReactNode } {
  // The dialog lives with the page, not in the row: the table turns into cards (and back) when the width crosses a
  // phone's, and a dialog kept in the row would be dropped with it.
  const [chosen, setChosen] = useState<OrderRow | null>(null);
  return {
    action: (order) => (order.kind === "sms" && order.use_again ? <UseAgainButton order={order} onChoose={setChosen} /> : null),
    dialog: chosen ? <UseAgainDialog key={chosen.reference_code} order={chosen} onClose={() => setChosen(null)} onStarted={onStarted} /> : null,
  };
}

export function UseAgainButton({ order, onChoose }: { order: OrderRow; onChoose: (order: OrderRow) => void }) {
  return (
    <Button
      size="sm"
      variant="outline"
      className="whitespace-nowrap"
      onClick={() => onChoose(order)}
      // Short on screen so the table keeps every column at 1280 px (issue 43: it wrapped onto four lines); the name says it all.
      aria-label={`Use again: this number, ${formatPhone(order.purchased_number)} (${order.service})`}
      title="Use this number again"
      data-testid="use-again"
    >
      <RotateCcw className="h-3.5 w-3.5 shrink-0" aria-hidden />
      Use again
    </Button>
  );
}

/** The sentences the confirm step says before the click: what it costs, how long a code usually takes, the refund. */
export function numberAgainSentences(quote: SmsUseAgainQuote): { price: string; wait: string; refund: string } {
  return {
    price: `It costs ${naira(quote.price)}, charged now as a new order.`,
    wait:
      quote.typical_wait_seconds === null
        ? "We have too few recent orders of this service to say how long a code usually takes."
        : `A code for ${quote.service} usually comes within ${formatSeconds(quote.typical_wait_seconds)} (our orders of the last 30 days).`,
    refund: `If no code comes within ${formatSeconds(quote.refund_after_seconds)}, the price goes back to your wallet.`,
  };
}

function UseAgainDialog({ order, onClose, onStarted }: { order: OrderRow; onClose: () => void; onStarted: (request: PendingSmsRequest) => void }) {
  const quote = useUseAgainQuote(order.reference_code);
  const useAgain = useUseNumberAgain();
  // A price the server moved to after the quote (409 PRICE_CHANGED): shown, and the next click sends it.
  const [newPrice, setNewPrice] = useState<number | null>(null);
  const [shortfall, setShortfall] = useState<number | null>(null);
  useEffect(() => setNewPrice(null), [quote.data?.price]);
  const price = newPrice ?? quote.data?.price ?? null;
  const number = formatPhone(quote.data?.number ?? order.purchased_number);

  const confirm = () => {
    if (price === null) return;
    useAgain.mutate(
      { requestId: order.reference_code, price },
      {
        onSuccess: (res) => {
          toast.success(res.message ? `number purchased successfully. ${res.message}` : "number purchased successfully");
          const bought = res.table?.purchased_number ?? res.phone.number;
          onStarted({
            request_id: String(res.table?.reference_code ?? res.phone.request_id),
            debitRef: res.debitRef,
            number: bought,
            purchased_number: bought,
            cost: res.price ?? price,
            sms: null,
            createdAt: Date.now(),
          });
          onClose();
        },
        onError: (err) => {
          const choice = priceChoiceFrom(err);
          if (choice) return setNewPrice(choice.price);
          const missing = shortfallFrom(err);
          if (missing) return setShortfall(missing);
          toast.error(err instanceof ApiError ? err.message : "Could not use this number again. Please try again.");
          // No longer eligible (the server said so): the orders table drops the button on its next read.
          if (err instanceof ApiError && err.code === "INVALID_STATE") onClose();
        },
      },
    );
  };

  const sentences = quote.data ? numberAgainSentences({ ...quote.data, price: price ?? quote.data.price }) : null;
  return (
    <Dialog
      open
      onOpenChange={(next) => !next && !useAgain.isPending && onClose()}
      title="Use this number again?"
      description={`${number} · ${order.service} · ${order.country}`}
      footer={
        <>
          <Button variant="outline" onClick={onClose} disabled={useAgain.isPending}>
            Cancel
          </Button>
          <Button onClick={confirm} disabled={price === null || useAgain.isPending} data-testid="use-again-confirm">
            {useAgain.isPending ? <Spinner className="h-4 w-4" /> : null}
            {price === null ? "Use again" : `Use again for ${naira(price)}`}
          </Button>
        </>
      }
    >
      <div className="flex flex-col gap-3 text-sm" data-testid="use-again-dialog">
        {quote.isPending ? (
          <Spinner className="h-5 w-5 text-blue-600" label="Reading today's price" />
        ) : quote.isError && quote.error instanceof ApiError && quote.error.code === "INVALID_STATE" ? (
          // No longer eligible (its window reopened, too old, or the upstream changed): the server's sentence, no retry.
          <p role="alert" data-testid="use-again-refused">{quote.error.message}</p>
        ) : quote.isError ? (
          <LoadError what="today's price for this number" error={quote.error} onRetry={() => void quote.refetch()} />
        ) : sentences ? (
          <>
            {newPrice !== null ? (
              <p role="alert" className="rounded-lg border border-amber-300 bg-amber-50 p-3 text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100" data-testid="use-again-price-changed">
                The price changed to {naira(newPrice)}. Nothing was charged: confirm the new price or cancel.
              </p>
            ) : null}
            <p data-testid="use-again-price">{sentences.price}</p>
            <p data-testid="use-again-wait">{sentences.wait}</p>
            <p>{sentences.refund}</p>
            {shortfall ? <ShortfallNotice amount={shortfall} /> : null}
          </>
        ) : null}
      </div>
    </Dialog>
  );
}
