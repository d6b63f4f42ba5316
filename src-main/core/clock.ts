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

let lastMs = Number.NaN;
let lastIso = '';

/**
 * `date.toISOString()`, remembered for the last millisecond asked: a tool call's record stamps its
 * request, decision, start and end, and a local call usually fits in one or two milliseconds.
 */
export function isoTime(date: Date): string {
  const ms = date.getTime();
  if (ms !== lastMs) {
    lastIso = date.toISOString();
    lastMs = ms;
  }
  return lastIso;
}
