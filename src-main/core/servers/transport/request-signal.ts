/**
 * One abort signal per HTTP request, linked to the long-lived signal the SDK hands to every fetch.
 *
 * Why: the SDK's Streamable HTTP transport passes its transport-lifetime signal to each `fetch` (a
 * 2025-era request has no signal of its own), and undici's `Request` adds an abort listener to the
 * signal it is given that is removed only when the request is garbage-collected. With calls in
 * flight, thousands piled up on the one signal (`MaxListenersExceededWarning: … abort listeners added
 * to [AbortSignal]`, memory held until a GC). `AbortSignal.any` is no way out on Node 20: the source
 * keeps a reference per derived signal for good. So each request gets a controller of our own:
 * undici's listener lands on it and goes with it. The long-lived signal gets one listener of ours,
 * whatever the number of requests, which aborts the requests still running when the transport
 * closes; a request leaves that set as soon as it is over — it failed, or its body was read to the
 * end, cancelled or broke.
 */

/** A request's own signal and how to unhook it from the long-lived one. */
export interface LinkedSignal {
  signal: AbortSignal;
  /** The request is over: the long-lived signal no longer needs to reach it (idempotent). */
  release(): void;
}

/** Per long-lived signal, the requests it still has to abort. */
const running = new WeakMap<AbortSignal, Set<AbortController>>();

/** A fresh signal that aborts when `source` does; undefined when there is nothing to link (or it already aborted). */
export function linkSignal(source: AbortSignal | null | undefined): LinkedSignal | undefined {
  if (!source || source.aborted) return undefined;
  let requests = running.get(source);
  if (!requests) {
    const set = (requests = new Set());
    running.set(source, set);
    source.addEventListener(
      'abort',
      () => {
        for (const controller of set) controller.abort(source.reason);
        set.clear();
      },
      { once: true },
    );
  }
  const controller = new AbortController();
  requests.add(controller);
  const set = requests;
  return { signal: controller.signal, release: () => set.delete(controller) };
}

/** What to be told about a response body as it is read. */
export interface BodyWatch {
  /** The body ended, was cancelled or failed (called once). */
  onSettled?(): void;
  /** Reading the body failed (before `onSettled`). */
  onError?(error: unknown): void;
}

/**
 * The response with its body relayed through `watch` (the status, headers and URL are the
 * original's). A response without a body is settled at once and returned as it is.
 */
export function watchBody(response: Response, watch: BodyWatch): Response {
  if (!response.body) {
    watch.onSettled?.();
    return response;
  }
  let settled = false;
  const settle = () => {
    if (settled) return;
    settled = true;
    watch.onSettled?.();
  };
  const reader = response.body.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          settle();
          controller.close();
        } else controller.enqueue(value);
      } catch (error) {
        watch.onError?.(error);
        settle();
        controller.error(error);
      }
    },
    cancel(reason) {
      settle();
      return reader.cancel(reason);
    },
  });
  const relayed = new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  // Redirect checks read these; a constructed Response has neither.
  Object.defineProperty(relayed, 'url', { value: response.url });
  Object.defineProperty(relayed, 'redirected', { value: response.redirected });
  return relayed;
}
