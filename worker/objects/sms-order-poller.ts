import { DurableObject } from "cloudflare:workers";
import type { Env } from "../env";

export class SmsOrderPoller extends DurableObject<Env> {}
