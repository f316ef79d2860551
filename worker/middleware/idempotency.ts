import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../app-env";
import { getDb } from "../db/client";
import { AppError } from "../lib/errors";
import { sha256Hex } from "../services/accounts";
import { claimIdempotencyKey, readIdempotencyKey, storeIdempotentAnswer } from "../services/developer";

const KEY_SHAPE = /^[\x21-\x7e]{1,255}$/;
/** A repeat that arrives while the first is still running waits for its answer this long (polling D1). */
const WAIT_FOR_FIRST_MS = 20_000;

/**
 * Idempotency-Key on every POST of the JSON API (after requireApiKey). Same key + same request (method, path, body) =
 * the first answer again, replayed from D1 (`Idempotent-Replayed: true`), never a second charge; same key + another
 * request = 422. Repeats that arrive while the first runs wait for its answer.
 */
export const requireIdempotencyKey = createMiddleware<AppEnv>(async (c, next) => {
  if (c.req.method !== "POST") return next();
  const key = c.req.header("idempotency-key")?.trim() ?? "";
  if (!KEY_SHAPE.test(key)) {
    throw new AppError("VALIDATION_FAILED", "Every POST needs an Idempotency-Key header (1-255 printable characters, e.g. a UUID).", {
      field: "Idempotency-Key",
    });
  }
  const db = getDb(c.env.DB);
  const apiKeyId = c.var.apiCaller.key.id;
  // The sub-account a request acts as is part of "the same request" (issue 46): the same key naming another is a 422.
  const subaccount = c.req.header("x-subaccount")?.trim();
  const requestHash = await sha256Hex(`${c.req.method} ${new URL(c.req.url).pathname}${subaccount ? ` as ${subaccount}` : ""}\n${await c.req.text()}`);
  let claim = await claimIdempotencyKey(db, apiKeyId, key, requestHash, c.var.services.clock.now());
  const deadline = Date.now() + WAIT_FOR_FIRST_MS;
  while (claim.kind === "in_flight" && !claim.abandoned && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    claim = await readIdempotencyKey(db, apiKeyId, key, requestHash, c.var.services.clock.now());
  }
  if (claim.kind === "mismatch") {
    throw new AppError("UNPROCESSABLE", "This Idempotency-Key was already used with a different request. Use a new key for a new request.");
  }
  if (claim.kind === "in_flight" && claim.abandoned) {
    throw new AppError(
      "CONFLICT",
      "The first request with this Idempotency-Key never finished, so whether it took effect is unknown. Check your balance (GET /api/v1/balance) and your orders in the app before trying again with a new key.",
    );
  }
  if (claim.kind === "in_flight") {
    throw new AppError("CONFLICT", "A request with this Idempotency-Key is still running. Retry it in a moment.");
  }
  if (claim.kind === "replay") {
    return c.body(claim.body, claim.status as 200, { "content-type": "application/json", "idempotent-replayed": "true" });
  }
  await next();
  // Errors reach here already turned into the one error body by app.onError: they are answers too, and replayed as such.
  await storeIdempotentAnswer(db, apiKeyId, key, c.res.status, await c.res.clone().text());
});
