import { Server } from "partyserver";
import type { Env } from "../env";

export class NotificationRoom extends Server<Env> {}
