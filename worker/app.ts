import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { cors } from "hono/cors";
import { HTTPException } from "hono/http-exception";
import { requestId } from "hono/request-id";
import { secureHeaders } from "hono/secure-headers";
import type { AppEnv } from "./app-env";
import { ConfigError, configFor } from "./config";
import { servicesFor } from "./container";
import { NON_DOCUMENT_POLICY } from "../schema/csp";
import { AppError, errorBody } from "./lib/errors";
import { log } from "./lib/log";
import { accountSecurityRoutes } from "./routes/account-security";
import { passkeyRoutes } from "./routes/passkeys";
import { accountRoutes } from "./routes/accounts";
import { resellerRoutes } from "./routes/resellers";
import { apiKeyRoutes } from "./routes/api-keys";
import { notificationRoutes } from "./routes/notifications";
import { apiV1Routes } from "./routes/api-v1";
import { adminRoutes, unsubscribeRoutes } from "./routes/admin";
import { serveAppShell } from "./routes/app-shell";
import { contentRoutes } from "./routes/content";
import { handlerApiRoutes } from "./routes/handler-api";
import { healthRoutes } from "./routes/health";
import { statusRoutes } from "./routes/status";
import { legacyClientRoutes } from "./routes/legacy-client";
import { realtimeRoutes } from "./routes/realtime";
import { rentalRoutes } from "./routes/rentals";
import { exportRoutes } from "./routes/exports";
import { orderRoutes } from "./routes/orders";
import { smsRoutes } from "./routes/sms";
import { walletRoutes } from "./routes/wallet";
import { transferRoutes } from "./routes/transfers";
import { telegramRoutes, telegramWebhookRoutes } from "./routes/telegram";
import { withdrawalRoutes, withdrawalSweepSandboxRoute } from "./routes/withdrawals";
import { webhookRoutes } from "./routes/webhooks";
import { sandboxRoutes } from "./sandbox/routes";

/** Bodies above this are refused before they are read (JSON requests here are a few hundred bytes). */
export const MAX_BODY_BYTES = 32 * 1024;

export function createApp() {
  // strict: false serves /register/ as /register (the spec's client adds a trailing slash to some account paths).
  const app = new Hono<AppEnv>({ strict: false });

  app.use("*", requestId());
  app.use("*", async (c, next) => {
    const started = Date.now();
    await next();
    // Path only: query strings can carry tokens (the realtime socket) and never reach the logs.
    log("info", "request", {
      rid: c.var.requestId,
      method: c.req.method,
      path: new URL(c.req.url).pathname,
      status: c.res.status,
      ms: Date.now() - started,
    });
  });
  app.use("*", async (c, next) => {
    c.set("config", configFor(c.env));
    // The request's services container (worker/container.ts, decision 050): every handler takes what it needs from
    // c.var.services; nothing below builds an adapter or reads the bindings into a dependency itself.
    c.set("services", servicesFor(c.env, { defer: (work) => c.executionCtx.waitUntil(work), requestId: c.var.requestId }));
    // The sandbox simulators post their webhooks to this same app without the network (worker/sandbox); handing them
    // the app here keeps them from importing app.ts, which imports them.
    c.set("loopback", async (request) => app.fetch(request, c.env, c.executionCtx));
    await next();
  });
  // Every answer to an allowed origin carries CORS headers, errors and 404s included (a browser reports an answer
  // without them as a network error, hiding the status): PUBLIC_URL's origin and CORS_ORIGINS (config.ts), which
  // holds WEB_CLIENT_URL's origin when another web client is configured (decision 032).
  app.use(
    "*",
    cors({
      origin: (origin, c) => (c.var.config.corsOrigins.includes(origin) ? origin : null),
      credentials: true,
      allowHeaders: ["Content-Type", "Authorization", "x-requires-auth", "Idempotency-Key", "X-API-Key"],
      allowMethods: ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"],
      maxAge: 600,
    }),
  );
  app.use(
    "*",
    secureHeaders({
      crossOriginResourcePolicy: "same-origin",
      referrerPolicy: "strict-origin-when-cross-origin",
      xFrameOptions: "DENY",
      // The same as web/public/_headers gives the static files: the worker now serves index.html itself (decision 021).
      permissionsPolicy: { camera: [], microphone: [], geolocation: [] },
    }),
  );
  // Content-Security-Policy (decision 021): the app's document sets its own (routes/app-shell.ts); everything else the
  // worker answers (JSON, the sandbox and unsubscribe pages) may run, load and frame nothing.
  app.use("*", async (c, next) => {
    await next();
    if (!c.res.headers.has("Content-Security-Policy")) c.res.headers.set("Content-Security-Policy", NON_DOCUMENT_POLICY);
  });
  const limitBody = bodyLimit({
    maxSize: MAX_BODY_BYTES,
    onError: () => {
      throw new AppError("PAYLOAD_TOO_LARGE", `Request body is too large (limit ${MAX_BODY_BYTES / 1024} KB).`);
    },
  });
  app.use("/api/*", limitBody);
  // The spec's original client's one call outside /api (POST /sms/code-success, routes/legacy-client.ts).
  app.use("/sms/*", limitBody);

  app.route("/api", healthRoutes);
  app.route("/api", statusRoutes);
  app.route("/api", accountRoutes);
  app.route("/api", accountSecurityRoutes);
  app.route("/api", passkeyRoutes);
  app.route("/api", contentRoutes);
  app.route("/api", walletRoutes);
  app.route("/api", transferRoutes);
  app.route("/api", withdrawalRoutes);
  app.route("/api/webhooks", webhookRoutes);
  app.route("/api", smsRoutes);
  app.route("/api", orderRoutes);
  app.route("/api", rentalRoutes);
  app.route("/api", exportRoutes);
  app.route("/api", realtimeRoutes);
  app.route("/api", apiKeyRoutes);
  // The Telegram bot (issue 48): its webhook and Settings' link; absent (404) without the bot's configuration.
  app.route("/api", telegramWebhookRoutes);
  app.route("/api", telegramRoutes);
  app.route("/api", notificationRoutes);
  app.route("/api", resellerRoutes);
  app.route("/api/v1", apiV1Routes);
  app.route("/api", unsubscribeRoutes);
  // The operator console's API: its own sub-app; anyone but an operator with two-factor on gets the 404 below.
  app.route("/api/admin", adminRoutes);
  app.route("/sandbox/squad-payouts/sweep", withdrawalSweepSandboxRoute);
  app.route("/sandbox", sandboxRoutes);
  app.route("/sms", legacyClientRoutes);
  // The SMS-Activate-compatible developer API (docs/developer-api.md), at the path DaisySMS uses.
  app.route("/stubs/handler_api.php", handlerApiRoutes);

  // Last: index.html and the other files of the web build, with the document's policy (wrangler.toml run_worker_first).
  app.get("*", serveAppShell);

  app.notFound((c) => c.json(errorBody("NOT_FOUND", "Not found."), 404));

  app.onError(async (err, c) => {
    if (err instanceof AppError) {
      // The one 429 body carries retry_after; the header says the same to clients that read headers (HTTP's way).
      if (err.code === "RATE_LIMITED" && typeof err.extra.retry_after === "number") c.header("Retry-After", String(err.extra.retry_after));
      if (err.status >= 500) log("warn", "upstream or server fault", { rid: c.var.requestId, code: err.code, message: err.message });
      return c.json(errorBody(err.code, err.message, err.extra), err.status as 400);
    }
    if (err instanceof HTTPException) {
      const status = err.status;
      if (status === 415) {
        // A route definition's body is JSON (worker/contract/): another media type is refused before its validation
        // reads it, so it is read (and dropped) here: an answer that leaves a POST's body unread resets the connection.
        if (!c.req.raw.bodyUsed) await c.req.raw.arrayBuffer().catch(() => undefined);
        return c.json(errorBody("UNSUPPORTED_MEDIA_TYPE", "Send the request body as JSON (Content-Type: application/json)."), 415);
      }
      const code = status === 413 ? "PAYLOAD_TOO_LARGE" : status === 401 ? "UNAUTHORIZED" : "BAD_JSON";
      const message = status === 400 ? "The request body is not valid JSON." : err.message || "Bad request.";
      return c.json(errorBody(code, message), status);
    }
    if (err instanceof ConfigError) {
      log("error", "configuration refused", { rid: c.var.requestId, message: err.message });
      return c.json(errorBody("INTERNAL", err.message), 500);
    }
    log("error", "unhandled error", { rid: c.var.requestId, name: err.name, message: err.message });
    return c.json(errorBody("INTERNAL", "Something went wrong on our side. Please try again."), 500);
  });

  return app;
}
