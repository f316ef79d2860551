/**
 * Every answer leaves the request's body read to its end (issue 43, decision 064).
 *
 * A body the worker answers before reading (a 401 decided from the header, a 413 from Content-Length, a 404) stays in
 * the connection. The local server (workerd's HTTP server) then closes that connection with the unread bytes in it,
 * and the client's kernel gets a reset instead of (or on top of) the answer: 6 in 60 POSTs with a bad key and a small
 * body reset where GETs and bodiless POSTs never did. So the worker's one entry (worker/index.ts) hands the app the
 * body through a stream of its own, and once the answer is ready it reads whatever the app left, before answering.
 * What the app reads is the same bytes in the same order (webhooks verify signatures on the raw body), as they arrive
 * (a streamed body is passed on chunk by chunk, never buffered first).
 *
 * The app owns the body until its answer is returned: a pull after that fails loudly instead of racing the rest-read.
 * The rest-read is bounded: past DRAIN_LIMIT_BYTES, or when the client stops sending for DRAIN_WAIT_MS, it gives up and
 * cancels the body (the connection then closes as before; the app refuses bodies over 32 KB, app.ts MAX_BODY_BYTES,
 * so only a client sending far more than any route accepts, or a stalled one, can meet that).
 */

/** The most of an unwanted body read to keep the connection clean (32 times the largest body a route accepts). */
export const DRAIN_LIMIT_BYTES = 1024 * 1024;
/** How long the rest-read waits for the client's next chunk before it gives up. */
export const DRAIN_WAIT_MS = 2_000;

export async function answerWithBodyRead(request: Request, answer: (request: Request) => Promise<Response>): Promise<Response> {
  if (request.body === null) return answer(request);
  const source = request.body.getReader();
  let ended = false;
  let answered = false;
  const forApp = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (answered) {
          controller.error(new TypeError("The request body was read after the answer was made."));
          return;
        }
        const { done, value } = await source.read();
        if (done) {
          ended = true;
          controller.close();
        } else {
          controller.enqueue(value);
        }
      },
      // The app stopped reading (a parser's error, a size limit): the rest is read below, after its answer.
    },
    // Nothing is read ahead of the app: an answer made without the body leaves all of it to the rest-read.
    { highWaterMark: 0 },
  );
  try {
    return await answer(new Request(request, { body: forApp }));
  } finally {
    answered = true;
    if (!ended) await readToEnd(source);
  }
}

/** Reads and drops the rest of a body, within the bounds above; a client that went away ends it too. */
async function readToEnd(source: ReadableStreamDefaultReader<Uint8Array>): Promise<void> {
  let read = 0;
  try {
    for (;;) {
      const next = await withinWait(source.read());
      if (next === "stalled") return await source.cancel("the client stopped sending");
      if (next.done) return;
      read += next.value.byteLength;
      if (read > DRAIN_LIMIT_BYTES) return await source.cancel("request body over the read limit");
    }
  } catch {
    // The client closed the connection: nothing is left to read.
  }
}

/** The chunk, or "stalled" when none came within DRAIN_WAIT_MS. */
async function withinWait<T>(read: Promise<T>): Promise<T | "stalled"> {
  let giveUp: (value: "stalled") => void = () => undefined;
  const stalled = new Promise<"stalled">((resolve) => (giveUp = resolve));
  const timer = setTimeout(() => giveUp("stalled"), DRAIN_WAIT_MS);
  try {
    return await Promise.race([read, stalled]);
  } finally {
    clearTimeout(timer);
  }
}
