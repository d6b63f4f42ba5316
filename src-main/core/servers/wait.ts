/**
 * Small timing helpers shared by the servers modules of all three jobs (`process/`, `transport/`,
 * `connection/`), hence at the top of `servers/`; many other areas' tests use `waitFor` too.
 */

/** Resolves after `ms` milliseconds. For bounded polling loops only, never as a synchronisation. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Resolves true when `promise` settles within `ms`, false otherwise (the promise keeps running). */
export async function withTimeout(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), Math.max(0, ms));
  });
  try {
    return await Promise.race([
      promise.then(
        () => true as const,
        () => true as const,
      ),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Polls `condition` every `intervalMs` until it returns a truthy value or `timeoutMs` passes.
 * Resolves with that value, or rejects with an error naming `what` on timeout.
 */
export async function waitFor<T>(
  condition: () => T | Promise<T>,
  { timeoutMs = 5000, intervalMs = 20, what = 'condition' }: { timeoutMs?: number; intervalMs?: number; what?: string } = {},
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await condition();
    if (value) return value as NonNullable<T>;
    if (Date.now() >= deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(intervalMs);
  }
}
