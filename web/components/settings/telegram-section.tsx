import { useState } from "react";
import { TELEGRAM_MESSAGES, type TelegramLinkStart } from "../../../schema/telegram";
import { ApiError } from "../../api/client";
import { useStartTelegramLink, useTelegram, useUnlinkTelegram } from "../../api/telegram";
import { formatDateTime } from "../../../schema/datetime";
import { toast } from "../../lib/toast";
import { Alert } from "../ui/alert";
import { Badge } from "../ui/badge";
import { Button, buttonClasses } from "../ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../ui/card";
import { LoadError } from "../ui/load-error";
import { Skeleton } from "../ui/skeleton";

/**
 * Settings → Telegram (issue 48, decision 070): "Connect Telegram" makes a single-use link (10 minutes) that opens our
 * bot; pressing Start there connects the chat, and this card then says so (it reads the state again while the link is
 * open). Disconnect from here or from the chat. A deployment without a bot (404) shows no card at all.
 */
export function TelegramSection() {
  const [link, setLink] = useState<TelegramLinkStart | null>(null);
  const state = useTelegram(link !== null);
  const start = useStartTelegramLink();
  const unlink = useUnlinkTelegram();
  const [failure, setFailure] = useState<string | null>(null);

  if (state.isError && state.error instanceof ApiError && state.error.status === 404) return null;

  const connect = () => {
    setFailure(null);
    start.mutate(undefined, {
      onSuccess: (started) => {
        // Shown as a link to press rather than opened from here: a window opened after the request's answer is what
        // popup blockers stop, and on a phone the link opens the Telegram app itself.
        setLink(started);
      },
      onError: (err) => setFailure(err.message || "Could not make a link. Please try again."),
    });
  };

  const disconnect = () => {
    setFailure(null);
    unlink.mutate(undefined, {
      onSuccess: () => {
        setLink(null);
        toast.success(TELEGRAM_MESSAGES.unlinked);
      },
      onError: (err) => setFailure(err.message || "Could not disconnect. Please try again."),
    });
  };

  const linked = state.data?.linked === true;
  return (
    <Card data-testid="telegram-section">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          Telegram {state.data ? <Badge variant={linked ? "success" : "secondary"}>{linked ? "Connected" : "Not connected"}</Badge> : null}
        </CardTitle>
        <CardDescription>
          Buy numbers, get your codes, top up and manage rentals from our official Telegram bot
          {state.data ? ` @${state.data.bot_username}` : ""}. Payments above a limit still ask you to confirm here.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-3">
        {failure ? <Alert variant="error">{failure}</Alert> : null}
        {state.isPending ? (
          <Skeleton className="h-10 w-48" />
        ) : state.isError ? (
          <LoadError what="your Telegram connection" error={state.error} onRetry={() => void state.refetch()} />
        ) : linked ? (
          <>
            <p className="text-sm" data-testid="telegram-linked">
              Connected to <span className="font-semibold">{state.data.chat_name ?? "a Telegram chat"}</span>
              {state.data.linked_at ? ` since ${formatDateTime(state.data.linked_at)}` : ""}.
            </p>
            <div>
              <Button variant="outline" onClick={disconnect} disabled={unlink.isPending}>
                {unlink.isPending ? "Disconnecting..." : "Disconnect Telegram"}
              </Button>
            </div>
          </>
        ) : (
          <>
            <div>
              <Button onClick={connect} disabled={start.isPending}>
                {start.isPending ? "Making a link..." : link ? "Make a new link" : "Connect Telegram"}
              </Button>
            </div>
            {link ? (
              <p className="text-sm">
                <a className={buttonClasses("outline")} href={link.url} target="_blank" rel="noopener noreferrer" data-testid="telegram-link">
                  Open @{state.data.bot_username} in Telegram
                </a>
                <span className="mt-2 block text-slate-500">
                  Press <b>Start</b> in the chat. The link works once, until {formatDateTime(link.expires_at)}.
                </span>
              </p>
            ) : null}
          </>
        )}
      </CardContent>
    </Card>
  );
}
