import { useState } from "react";
import { useOrders } from "../api/orders";
import { OrdersTable } from "../components/orders/orders-table";
import { ErrorDialog, SmsDialog } from "../components/sms/sms-dialog";
import { SmsPurchaseCard } from "../components/sms/sms-purchase-card";
import { useActiveSmsRequest } from "../components/sms/use-active-sms-request";
import { Card, CardContent, CardHeader, CardTitle } from "../components/ui/card";

export default function SmsPage() {
  const orders = useOrders();
  const active = useActiveSmsRequest();
  const [errorDetail, setErrorDetail] = useState<string | null>(null);
  const smsOrders = (orders.data ?? []).filter((o) => o.kind !== "rental");

  return (
    <div className="mx-auto flex w-full max-w-7xl flex-col gap-6">
      <h1 className="text-2xl font-semibold tracking-tight">Receive SMS</h1>
      <div className="grid gap-6 lg:grid-cols-[minmax(0,380px)_minmax(0,1fr)]">
        <SmsPurchaseCard
          shown={active.shown}
          busyWithRequest={active.shown?.phase === "waiting" && Boolean(active.pending)}
          onPurchased={active.start}
          onUnexpectedError={setErrorDetail}
        />
        <Card className="min-w-0">
          <CardHeader>
            <CardTitle>Recent SMS Orders</CardTitle>
          </CardHeader>
          <CardContent>
            {orders.isPending ? (
              <p className="py-10 text-center text-sm text-slate-500 dark:text-slate-400" role="status">
                Loading...
              </p>
            ) : orders.isError ? (
              <p role="alert" className="py-10 text-center text-sm text-red-600 dark:text-red-400">
                {orders.error.message}
              </p>
            ) : (
              <OrdersTable orders={smsOrders} caption="Recent SMS orders" />
            )}
          </CardContent>
        </Card>
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
        />
      ) : null}
      <ErrorDialog detail={errorDetail} onClose={() => setErrorDetail(null)} />
    </div>
  );
}
