import { useRouterState } from "@tanstack/react-router";
import type { ReactNode } from "react";
import type { OrderRow } from "../../../schema/sms";
import { useOrders } from "../../api/orders";
import { Card, CardContent, CardHeader, CardTitle } from "../ui/card";
import { OrdersTable } from "./orders-table";
import { LoadError } from "../ui/load-error";

/**
 * The order a link opened (issue 47: a notification's tap lands on #/sms/1?order=<id> or #/number/1?rental=<id>), read
 * from the address as it changes: a tab the service worker steered to another order shows that one. Kept here, in the
 * module both screens already share, so it costs no chunk of its own.
 */
export function useOpenedFromLink(name: "order" | "rental"): string | null {
  return useRouterState({ select: (s) => new URLSearchParams(s.location.searchStr).get(name) });
}

/**
 * The orders card both screens show beside their form: 'Loading...' while orders load (the spec's text), the error
 * if they fail, else the table of the orders of one kind (SMS orders on Receive SMS, rentals on Rent Number).
 */
export function OrdersPanel({
  title,
  caption,
  kind,
  action,
  opened,
}: {
  title: string;
  caption: string;
  kind: OrderRow["kind"];
  /** The order a link opened (a notification's tap: #/sms/1?order=<id>, #/number/1?rental=<id>). */
  opened?: string | null;
  /** A row's action, or null for none (its column shows only when a row has one). */
  action?: (order: OrderRow) => ReactNode;
}) {
  const orders = useOrders();
  const rows = (orders.data ?? []).filter((o) => (kind === "rental" ? o.kind === "rental" : o.kind !== "rental"));
  // The Action column only when some row has an action (an SMS row has one only where "Use this number again" is offered).
  const rowAction = action && rows.some((o) => action(o) !== null) ? action : undefined;
  return (
    <Card className="min-w-0">
      <CardHeader>
        <CardTitle>{title}</CardTitle>
      </CardHeader>
      {/* Narrower side padding from 1024 px: the table's columns get the width (issue 43). */}
      <CardContent className="lg:px-3">
        {orders.isPending ? (
          <p className="py-10 text-center text-sm text-slate-600 dark:text-slate-400" role="status">
            Loading...
          </p>
        ) : orders.isError ? (
          <LoadError what="your orders" error={orders.error} onRetry={() => void orders.refetch()} />
        ) : (
          <>
            <OrdersTable orders={rows} action={rowAction} caption={caption} opened={opened} />
            {rows.length === 0 ? (
              <p className="mt-3 text-center text-sm text-slate-600 dark:text-slate-300" data-testid="orders-empty-hint">
                {kind === "rental"
                  ? "Choose a country and a period above, then press Get Number: your rented numbers show here."
                  : "Choose a service and a country above, then press Get Number: your orders and their codes show here."}
              </p>
            ) : null}
          </>
        )}
      </CardContent>
    </Card>
  );
}
