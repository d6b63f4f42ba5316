/**
 * Node's `MaxListenersExceededWarning` (too many listeners on one AbortSignal or emitter), counted
 * while an arm runs instead of printed. The bare SDK's Streamable HTTP transport hands its one
 * long-lived AbortSignal to every `fetch`, and undici adds a listener to it per request until that
 * request is garbage-collected: under the bench's 16 calls in flight the baseline arm printed
 * thousands of these warnings, with stack traces, burying the report (Patchbay's remote transport
 * gives each request a signal of its own: `servers/transport/request-signal.ts`). Counted per arm,
 * the report shows which side leaks — and the host's count is a check in itself (issue #15, defect 3).
 * Other warnings go to the listeners that were there before.
 */
export async function countingListenerWarnings<T>(run: () => Promise<T>): Promise<{ value: T; warnings: number }> {
  const previous = process.listeners('warning');
  let warnings = 0;
  const counter = (warning: Error) => {
    if (warning.name === 'MaxListenersExceededWarning') warnings += 1;
    else for (const listener of previous) listener(warning);
  };
  process.removeAllListeners('warning');
  process.on('warning', counter);
  try {
    const value = await run();
    // A warning is emitted on the next tick after the listener that crossed the line was added.
    await new Promise((resolve) => setImmediate(resolve));
    return { value, warnings };
  } finally {
    process.off('warning', counter);
    for (const listener of previous) process.on('warning', listener);
  }
}
