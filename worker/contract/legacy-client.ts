
import { answer, route } from "./kit";

/** The spec's original web client's one call outside /api (decision 032), mounted at /sms (routes/legacy-client.ts). */

/** After showing a code it posts `{ debitRef }` and ignores the answer: `{}`, and nothing happens. */
export const codeSuccess = route({ method: "post", path: "/code-success", responses: { 200: answer<Record<string, never>>() } });
