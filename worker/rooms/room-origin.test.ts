import { listDurableObjectIds } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { getServerByName } from "partyserver";
import { describe, expect, it } from "vitest";
import type { Env } from "../config";
import { createUser } from "../test/helpers";
import { APP_ORIGIN, connect, realtimeTokenFor, roomPath } from "../test/sockets";
import { FOREIGN_ORIGIN_MESSAGE, isAllowedOrigin } from "./room-gate";

// Issue 33 (ASVS 5.0 4.4.2): the notification room refuses a WebSocket upgrade whose Origin is neither ours
// (PUBLIC_URL) nor listed in CORS_ORIGINS, before any socket opens.
const refused = { code: "FORBIDDEN", message: FOREIGN_ORIGIN_MESSAGE, error: FOREIGN_ORIGIN_MESSAGE };

describe("the realtime handshake's Origin", () => {
  it("opens for our own origin", async () => {
    const user = await createUser();
    const res = await connect(`${roomPath(user.id)}?token=${await realtimeTokenFor(user)}`, APP_ORIGIN);
    expect(res.status).toBe(101);
  });

  it("refuses another site, a missing Origin, the opaque 'null' and a look-alike, with a valid token: 403 and no socket", async () => {
    const user = await createUser();
    const token = await realtimeTokenFor(user);
    for (const origin of ["https://evil.example", null, "null", "http://127.0.0.1:8787.evil.example", "http://127.0.0.1:8788", "https://127.0.0.1:8787"]) {
      const res = await connect(`${roomPath(user.id)}?token=${token}`, origin);
      expect(res.status, String(origin)).toBe(403);
      expect(res.body, String(origin)).toEqual(refused);
      expect(res.socket, String(origin)).toBeUndefined();
    }
  });

  it("is decided by PUBLIC_URL, never by the Host header the request carries", async () => {
    const user = await createUser();
    const res = await connect(`${roomPath(user.id)}?token=${await realtimeTokenFor(user)}`, "https://evil.example");
    expect(res.status).toBe(403);
    expect(isAllowedOrigin("http://127.0.0.1:8787", env as Env)).toBe(true);
    expect(isAllowedOrigin("https://evil.example", { ...(env as Env), PUBLIC_URL: "https://evil.example/" } as Env)).toBe(true);
    expect(isAllowedOrigin("https://evil.example", env as Env)).toBe(false);
  });

  it("accepts an origin listed in CORS_ORIGINS, and only an exact match", () => {
    const withPartner = { ...(env as Env), CORS_ORIGINS: " https://partner.example , https://ops.example" } as Env;
    expect(isAllowedOrigin("https://partner.example", withPartner)).toBe(true);
    expect(isAllowedOrigin("https://ops.example", withPartner)).toBe(true);
    expect(isAllowedOrigin("https://partner.example.evil", withPartner)).toBe(false);
    expect(isAllowedOrigin("https://partner.example", env as Env)).toBe(false);
  });

  it("a foreign origin never creates a room, and the room itself refuses one that reached it another way", async () => {
    const stranger = crypto.randomUUID();
    const user = await createUser();
    const before = await listDurableObjectIds(env.NotificationRoom);
    const viaGate = await connect(`${roomPath(user.id)}?token=${await realtimeTokenFor(user)}`, "https://evil.example");
    expect(viaGate.status).toBe(403);
    expect((await listDurableObjectIds(env.NotificationRoom)).length).toBe(before.length);
    expect((await listDurableObjectIds(env.NotificationRoom)).some((id) => id.equals(env.NotificationRoom.idFromName(stranger)))).toBe(false);

    const room = await getServerByName(env.NotificationRoom, user.id);
    const direct = await room.fetch(
      new Request(`http://127.0.0.1:8787${roomPath(user.id)}?token=${await realtimeTokenFor(user)}`, { headers: { Upgrade: "websocket", Origin: "https://evil.example" } }),
    );
    expect(direct.status).toBe(403);
    expect(await direct.json()).toEqual(refused);
  });
});
