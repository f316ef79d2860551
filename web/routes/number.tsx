import { Inbox } from "lucide-react";
import { useEffect, useState } from "react";
import type { OrderRow } from "../../schema/sms";
import { OrdersPanel, useOpenedFromLink } from "../components/orders/orders-panel";
import { RentForm } from "../components/rent/rent-form";
import { RentalInboxDialog } from "../components/rent/rental-inbox-dialog";
import { Button } from "../components/ui/button";
import { useDocumentTitle } from "../components/layout/logo";
import { askCodeNotificationPermission } from "../lib/code-alerts";

type OpenInbox = { id: string; number?: string; canCancel?: boolean };

export default function NumberPage() {
  useDocumentTitle("Rent Number");
  const [inbox, setInbox] = useState<OpenInbox | null>(null);
  // A notification's tap opens its rental's inbox (issue 47).
  const opened = useOpenedFromLink("rental");
  useEffect(() => {
    if (opened) setInbox({ id: opened });
  }, [opened]);

  const action = (order: OrderRow) =>
    order.kind === "rental" ? (
      <Button
        size="sm"
        variant="outline"
        onClick={() => setInbox({ id: order.reference_code, number: order.purchased_number ?? undefined, canCancel: order.can_cancel })}
        aria-label={`Open the inbox of ${order.purchased_number ?? "this rental"}`}
      >
        <Inbox className="h-4 w-4" aria-hidden />
        Inbox{order.sms_count ? ` (${order.sms_count})` : ""}
      </Button>
    ) : null;

  return (
    <div className="mx-auto flex w-full max-w-7xl flex-col gap-6">
      <h1 className="text-2xl font-semibold tracking-tight">Rent Number</h1>
      <div className="grid gap-6 min-[1600px]:grid-cols-[minmax(0,380px)_minmax(0,1fr)]">
        <RentForm
          onRented={(rental) => {
            setInbox({ id: rental.id, number: rental.number ?? undefined, canCancel: rental.can_cancel });
            // The moment a notification helps: SMS will arrive on this number (asked once; never on page load).
            void askCodeNotificationPermission();
          }}
        />
        <OrdersPanel title="Rented Numbers" caption="Rented numbers" kind="rental" action={action} opened={opened} />
      </div>
      <RentalInboxDialog
        rentalId={inbox?.id ?? null}
        fallbackNumber={inbox?.number}
        fallbackCanCancel={inbox?.canCancel}
        onClose={() => setInbox(null)}
      />
    </div>
  );
}
