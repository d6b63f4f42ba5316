/**
 * The time source of the core. Its own module (not in ports.ts) so that every area can take a clock
 * without importing the host's ports, which themselves name the areas' option types.
 */

/** Tells the time; tests pass their own. */
export interface Clock {
  now(): Date;
}

/** The real time. */
export const systemClock: Clock = { now: () => new Date() };

/**
 * The clock's time in milliseconds, for what reads it on every call (the telemetry recorder): the
 * real clock reads `Date.now()` rather than making a `Date` per read; a test's clock is asked as usual.
 */
export function millisOf(clock: Clock): () => number {
  return clock === systemClock ? Date.now : () => clock.now().getTime();
}
