import { useCallback, useEffect, useRef, useState, type MouseEvent, type RefObject } from 'react';

/** How long controls must stay where they are before a pointer click on them counts (as browsers do for permission prompts). */
export const SETTLE_MS = 500;

interface Place {
  x: number;
  y: number;
  /** When it was first seen at this place (performance.now()). */
  since: number;
}

export interface SettledClicks<T extends HTMLElement> {
  /** The element whose place on screen is watched (the row of buttons). */
  ref: RefObject<T | null>;
  /** True while it has just appeared or moved: its buttons say so (`aria-disabled`) and ignore pointer clicks. */
  settling: boolean;
  /** Wraps a click handler: a pointer click while the controls are settling does nothing. */
  guard(handler: () => void): (event: MouseEvent) => void;
}

/**
 * Clickjacking guard for controls placed beside content that another party lays out (an MCP App's
 * question under or beside its frame, which the app can resize): something that moves a button under
 * the pointer just before a click must not get that click. The element's place on screen is read every
 * animation frame and again at the click itself; a pointer click within `SETTLE_MS` of the element
 * appearing or moving is ignored. Keyboard presses (a click with `detail` 0) act on the focused button
 * wherever it is, so they always count.
 */
export function useSettledClicks<T extends HTMLElement>(): SettledClicks<T> {
  const ref = useRef<T>(null);
  const place = useRef<Place | null>(null);
  const [settling, setSettling] = useState(true);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  /** Reads the element's place now; true when it is where it was and has been there long enough. */
  const still = useCallback((): boolean => {
    const element = ref.current;
    if (!element) return false;
    const { left, top } = element.getBoundingClientRect();
    const now = performance.now();
    const last = place.current;
    if (!last || Math.abs(last.x - left) > 0.5 || Math.abs(last.y - top) > 0.5) {
      place.current = { x: left, y: top, since: now };
      setSettling(true);
      clearTimeout(timer.current);
      timer.current = setTimeout(() => setSettling(false), SETTLE_MS);
      return false;
    }
    return now - last.since >= SETTLE_MS;
  }, []);

  useEffect(() => {
    let frame = 0;
    const watch = () => {
      still();
      frame = requestAnimationFrame(watch);
    };
    watch();
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer.current);
    };
  }, [still]);

  const guard = useCallback(
    (handler: () => void) => (event: MouseEvent) => {
      if (event.detail === 0 || still()) handler();
    },
    [still],
  );
  return { ref, settling, guard };
}
