/**
 * A browser step of the bench with a deadline. `page.evaluate` has no timeout of its own, and a step
 * waiting on the page (animation frames while scrolling, a mark that never comes) once kept a whole
 * `npm run bench` waiting for ten minutes with nothing said: past the deadline the step fails with its
 * name, and the scenario's `finally` closes the browser and stops the web host.
 */
import { withTimeout } from '../../src-main/core/servers/wait';

export async function withDeadline<T>(what: string, ms: number, step: () => Promise<T>): Promise<T> {
  const running = step();
  if (!(await withTimeout(running, ms))) throw new Error(`${what} did not finish within ${Math.round(ms / 1000)} s`);
  return running;
}
