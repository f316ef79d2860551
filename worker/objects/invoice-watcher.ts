import { DurableObject } from "cloudflare:workers";
import type { Env } from "../env";

export class InvoiceWatcher extends DurableObject<Env> {}
