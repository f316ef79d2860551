import { DurableObject } from "cloudflare:workers";
import type { Env } from "../env";

export class RentalWatcher extends DurableObject<Env> {}
