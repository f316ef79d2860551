import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { toast } from "../../lib/toast";
import { ApiError } from "../../api/client";
import { smsOrderQueryOptions, useCancelSmsRequest, useFinishSmsOrder, useRequestAnotherSmsCode, useSmsOrder } from "../../api/sms";
import type { SmsStatusResponse } from "../../../schema/sms";
import {
  clearPendingRequest,
  MAX_OTHER_REQUESTS,
  savePendingRequest,
  updatePendingOrder,
  usePendingRequest,
  type PendingSmsRequest,
} from "./pending-request";
import { smsCode, smsPhase, type SmsPhase } from "./sms-phase";
import { invalidateMoney } from "../../api/wallet";
import * as queryKeys from "../../api/keys";

/** An order that may still get its code (or whose state this tab has not read yet). */
export function stillOpen(status: Pick<SmsStatusResponse, "state"> | undefined): boolean {
  return !status || status.state === "waiting" || status.state === "pending";
}

/** Spec section 9: the cancel flag resets after 2 seconds. */
export const CANCEL_FLAG_MS = 2000;

export type AnotherCodeState = {
  /** Every code this number received, oldest first. */
  codes: string[];
  /** "Get another code" can be asked for now. */
  available: boolean;
  /** Another code was asked for and has not come yet. */
  waiting: boolean;
  /** Its price in naira (0: free), or null where the provider has none. */
  price: number | null;
  /** Issue 43: while waiting, when the number closes and the wait ends (ISO 8601), from the server. */
  until: string | null;
  /** "Stop waiting" was pressed and the server has not answered yet. */
  stopping: boolean;
};

export type ShownRequest = { requestId: string; number: string; phase: SmsPhase; code: string | null };

/**
 * The number this browser is waiting on: restored from localStorage (a reload, a second tab), its state read from the
 * server (polled at the spec's 6 s while the socket is down, pushed otherwise), and the dialog's open / cancel rules.
 */
export function useActiveSmsRequest() {
  const qc = useQueryClient();
  const pending = usePendingRequest();
  const order = useSmsOrder(pending?.request_id ?? null);
  const cancelMutation = useCancelSmsRequest();
  const anotherMutation = useRequestAnotherSmsCode();
  const finishMutation = useFinishSmsOrder();
  const [dialogOpen, setDialogOpen] = useState(false);
  const [cancelling, setCancelling] = useState(false);
  const cancelTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  // What the number-and-code box keeps showing after the dialog is dismissed.
  const [lastShown, setLastShown] = useState<ShownRequest | null>(null);

  const phase = pending ? smsPhase(order.data, pending) : null;
  const code = pending ? smsCode(order.data, pending) : null;

  // A new or restored request (this tab, a reload, or another tab) opens the dialog.
  const requestId = pending?.request_id ?? null;
  useEffect(() => {
    if (requestId) setDialogOpen(true);
  }, [requestId]);

  // The server settled the order: remember it, refresh money views, and open the popup as the spec does.
  const previousPhase = useRef<SmsPhase | null>(null);
  useEffect(() => {
    if (!pending || !phase) return;
    if (order.data) updatePendingOrder(pending.request_id, { phase: order.data.phase, sms: order.data.sms });
    if (phase !== previousPhase.current && phase !== "waiting") {
      void invalidateMoney(qc);
      if (phase === "cancelled") {
        // Cancelled elsewhere (another tab): nothing left to show.
        clearPendingRequest(pending.request_id);
        setDialogOpen(false);
      } else {
        setDialogOpen(true);
      }
    }
    previousPhase.current = phase;
  }, [pending, phase, order.data, qc]);

  // "Try another number": the server moved on to the next route. Follow it in the same dialog, with its own number.
  const nextId = order.data?.chain?.next_request_id ?? null;
  useEffect(() => {
    if (!pending || !nextId || nextId === pending.request_id) return;
    let stale = false;
    void qc.fetchQuery(smsOrderQueryOptions(nextId)).then(
      (next) => {
        if (stale || !next.number) return;
        previousPhase.current = null;
        // Issue 28: a number from another country is said, not left for the customer to notice in the digits.
        const from = order.data?.country;
        const switchedFrom = from && next.country && from !== next.country ? from : undefined;
        // The other numbers of a several-at-once purchase stay listed: each follows its own chain (other-numbers.tsx).
        savePendingRequest({ ...pending, request_id: nextId, debitRef: `buy:${nextId}`, number: next.number, purchased_number: next.number, sms: null, phase: undefined, createdAt: Date.now(), switchedFrom });
        void invalidateMoney(qc);
      },
      () => undefined,
    );
    return () => {
      stale = true;
    };
  }, [pending, nextId, qc, order.data?.country]);

  // Not this user's order any more (or gone): the server is the truth.
  useEffect(() => {
    if (pending && order.error instanceof ApiError && order.error.status === 404) clearPendingRequest(pending.request_id);
  }, [pending, order.error]);

  useEffect(() => () => clearTimeout(cancelTimer.current), []);

  /**
   * A new purchase. Numbers still waiting from before stay in the same dialog as entries of their own (issue 28: the
   * server allows buying while one waits; each order keeps its own state, cancel and refund).
   */
  const start = (request: PendingSmsRequest) => {
    previousPhase.current = null;
    const earlier = pending ? [{ request_id: pending.request_id, number: pending.purchased_number }, ...(pending.others ?? [])] : [];
    const open = earlier.filter((o) => o.request_id !== request.request_id && stillOpen(qc.getQueryData<SmsStatusResponse>(queryKeys.smsOrder(o.request_id))));
    const others = [...(request.others ?? []), ...open].slice(0, MAX_OTHER_REQUESTS);
    savePendingRequest({ ...request, others: others.length ? others : undefined });
    setLastShown(null);
    setDialogOpen(true);
  };

  const cancel = () => {
    if (!pending || phase !== "waiting" || cancelling) return;
    const id = pending.request_id;
    setCancelling(true);
    clearTimeout(cancelTimer.current);
    cancelTimer.current = setTimeout(() => setCancelling(false), CANCEL_FLAG_MS);
    cancelMutation.mutate(id, {
      onSuccess: () => {
        toast.success("cancelled purchase successfully", { id: `sms-cancel:${id}` });
        clearPendingRequest(id);
        setLastShown(null);
        setDialogOpen(false);
      },
      onError: (err) => {
        // A 409 means the code came first: the refreshed status shows it.
        toast.error(`Cancel failed: ${err.message}`);
        void qc.invalidateQueries({ queryKey: queryKeys.smsOrder(id) });
      },
    });
  };

  // "Get another code" on the same number (free where the provider offers it; the server says so in the status).
  const another: AnotherCodeState = {
    codes: order.data?.codes?.length ? order.data.codes : code ? [code] : [],
    available: Boolean(order.data?.can_request_another_code),
    waiting: (Boolean(order.data?.waiting_for_another_code) || anotherMutation.isPending) && !finishMutation.isSuccess,
    price: order.data?.another_code_price ?? null,
    until: order.data?.waiting_for_another_code ? (order.data.another_code_until ?? null) : null,
    stopping: finishMutation.isPending,
  };
  const requestAnother = () => {
    if (!pending || !another.available || another.waiting) return;
    anotherMutation.mutate(pending.request_id, {
      onError: (err) => toast.error(err.message),
    });
  };

  /** Issue 43: "Stop waiting" for another code: the number closes now; the codes it got stay shown. */
  const stopWaiting = () => {
    if (!pending || !another.waiting || finishMutation.isPending) return;
    finishMutation.mutate(pending.request_id, {
      onSuccess: () => toast.success("Stopped waiting: this number is closed. Its codes stay here."),
      onError: (err) => toast.error(err.message),
    });
  };

  /**
   * Done / Close on the dialog's own number. Another entry still waiting becomes the dialog's number (with the rest
   * beside it), so a number that waits is never dropped from view by finishing with another.
   */
  const dismiss = () => {
    if (cancelling) return;
    if (pending && phase) setLastShown({ requestId: pending.request_id, number: pending.purchased_number, phase, code });
    if (!pending) {
      setDialogOpen(false);
      return;
    }
    const waiting = (pending.others ?? []).filter((o) => stillOpen(qc.getQueryData<SmsStatusResponse>(queryKeys.smsOrder(o.request_id))));
    const [next, ...rest] = waiting;
    if (next) {
      previousPhase.current = null;
      savePendingRequest({ request_id: next.request_id, debitRef: `buy:${next.request_id}`, number: next.number, purchased_number: next.number, cost: 0, sms: null, createdAt: Date.now(), others: rest.length ? rest : undefined });
      return;
    }
    clearPendingRequest(pending.request_id);
    setDialogOpen(false);
  };

  const shown: ShownRequest | null =
    pending && phase ? { requestId: pending.request_id, number: pending.purchased_number, phase, code } : lastShown;

  // Where a "try another number" purchase stands: which route of how many, and whether the next is being bought.
  const chain = order.data?.chain ?? null;
  const route = chain ? { step: chain.step, max: chain.max_routes, switching: Boolean(chain.next_request_id) || chain.moving_on } : null;

  // Issue 28: the server's own refund time for the waiting number (the dialog counts down to it).
  const refundAt = phase === "waiting" ? (order.data?.refund_at ?? null) : null;
  // Issue 28: the whole SMS where the provider gives it; null once received means it sent only the code.
  const smsText = phase === "received" ? (order.data?.sms_text ?? null) : null;
  const switchedFrom = pending?.switchedFrom && order.data?.country ? { from: pending.switchedFrom, to: order.data.country } : null;
  return { pending, shown, dialogOpen, setDialogOpen, cancelling, cancel, dismiss, start, another, requestAnother, stopWaiting, route, refundAt, smsText, switchedFrom };
}
