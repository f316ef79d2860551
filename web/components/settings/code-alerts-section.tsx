import { useState } from "react";
import {
  askCodeNotificationPermission,
  codeSoundEnabled,
  notificationPermission,
  playChime,
  setCodeSoundEnabled,
} from "../../lib/code-alerts";
import { Button } from "../ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../ui/card";

const STATUS_TEXT: Record<ReturnType<typeof notificationPermission>, string> = {
  granted: "On: a code that arrives while this tab is in the background shows as a notification.",
  default: "Off. Turn them on to see a code even when this tab is in the background.",
  denied: "Blocked in this browser. Allow notifications for this site in the browser's settings to turn them on.",
  unsupported: "This browser does not show notifications; the tab title still counts new codes.",
};

/** Settings → Code alerts (issue 17): browser notifications for codes and the optional chime, on this device. */
export function CodeAlertsSection() {
  const [permission, setPermission] = useState(notificationPermission);
  const [sound, setSound] = useState(codeSoundEnabled);
  return (
    <Card>
      <CardHeader>
        <CardTitle>Code alerts</CardTitle>
        <CardDescription>
          When a code or a rental SMS arrives while this tab is in the background, the tab title shows how many are new.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <div className="flex flex-col gap-2">
          <p className="text-sm" data-testid="notification-status">
            Browser notifications: {STATUS_TEXT[permission]}
          </p>
          {permission === "default" ? (
            <div>
              <Button variant="outline" onClick={() => void askCodeNotificationPermission().then(setPermission)}>
                Allow notifications
              </Button>
            </div>
          ) : null}
        </div>
        <label className="flex items-center gap-2 text-sm">
          <input
            type="checkbox"
            className="h-4 w-4"
            checked={sound}
            onChange={(e) => {
              setCodeSoundEnabled(e.target.checked);
              setSound(e.target.checked);
              // Heard once on switching on, so the customer knows what to listen for.
              if (e.target.checked) playChime();
            }}
          />
          Play a sound when a code arrives in the background (this device)
        </label>
      </CardContent>
    </Card>
  );
}
