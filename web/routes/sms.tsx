import { useState } from "react";
import { OrdersPanel, useOpenedFromLink } from "../components/orders/orders-panel";
import { useNumberAgainChoice } from "../components/orders/use-again";
import { ErrorDialog, SmsDialog } from "../components/sms/sms-dialog";
import { SmsPurchaseCard } from "../components/sms/sms-purchase-card";
import { OtherNumbers } from "../components/sms/other-numbers";
import { HistoryExport } from "../components/orders/history-export";
import { useActiveSmsRequest } from "../components/sms/use-active-sms-request";
import type { PendingSmsRequest } from "../components/sms/pending-request";
import { useDocumentTitle } from "../components/layout/logo";
import { askCodeNotificationPermission } from "../lib/code-alerts";

export default function SmsPage() {
  useDocumentTitle("Receive SMS");
  const active = useActiveSmsRequest();
  // A notification's tap opens its order here (issue 47): its row is marked, with its code.
  const opened = useOpenedFromLink("order");
  const [errorDetail, setErrorDetail] = useState<string | null>(null);
  const onPurchased = (request: PendingSmsRequest) => {
    active.start(request);
    // The moment a notification helps: a code is on its way (asked once; never on page load).
    void askCodeNotificationPermission();
  };
  // "Use this number again" (issue 32): its new order opens the same dialog as any purchase.
  const numberAgain = useNumberAgainChoice(onPurchased);

  return (
    <div className="mx-auto flex w-full max-w-7xl flex-col gap-6">
      <h1 className="text-2xl font-semibold tracking-tight">Receive SMS</h1>
      <div className="grid gap-6 min-[1600px]:grid-cols-[minmax(0,380px)_minmax(0,1fr)]">
        <SmsPurchaseCard
          shown={active.shown}
          onPurchased={onPurchased}
          onUnexpectedError={setErrorDetail}
        />
        <OrdersPanel title="Recent SMS Orders" caption="Recent SMS orders" kind="sms" action={numberAgain.action} opened={opened} />
      </div>
      {active.pending && active.shown ? (
        <SmsDialog
          open={active.dialogOpen}
          onOpenChange={active.setDialogOpen}
          phase={active.shown.phase}
          number={active.shown.number}
          code={active.shown.code}
          cancelling={active.cancelling}
          onCancelRequest={active.cancel}
          onDismiss={active.dismiss}
          another={active.another}
          onAnotherCode={active.requestAnother}
          onStopWaiting={active.stopWaiting}
          route={active.route}
          refundAt={active.refundAt}
          smsText={active.smsText}
          switchedFrom={active.switchedFrom}
          extra={active.pending.others?.length ? <OtherNumbers others={active.pending.others} /> : null}
        />
      ) : null}
      <div className="max-w-md">
        <HistoryExport />
      </div>
      {numberAgain.dialog}
      <ErrorDialog detail={errorDetail} onClose={() => setErrorDetail(null)} />
    </div>
  );
}
