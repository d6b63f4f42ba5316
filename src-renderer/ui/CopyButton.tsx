import { useEffect, useRef, useState } from 'react';

/** Puts text on the clipboard; resolves false when the browser refuses (no permission, no API). */
export async function writeClipboard(text: string): Promise<boolean> {
  try {
    if (!navigator.clipboard) return false;
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

export interface CopyButtonProps {
  /** What is copied, read when clicked (so a long text is not built on every render). */
  text: string | (() => string);
  /** The button's accessible name, e.g. "Copy code", "Copy message" (it stays the same after copying). */
  label: string;
  /** What the button shows (default "Copy"). */
  children?: string;
  className?: string;
}

/** How long "Copied" stays. */
const SAID_MS = 2000;

/**
 * A copy button that says what happened: "Copied" (or why not) in a status beside it, announced to
 * screen readers, then quiet again. The button keeps its name, so it can be found the same way twice.
 */
export function CopyButton({ text, label, children = 'Copy', className = 'link copy-button' }: CopyButtonProps) {
  const [said, setSaid] = useState<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const copy = async () => {
    const ok = await writeClipboard(typeof text === 'function' ? text() : text);
    setSaid(ok ? 'Copied' : 'Could not copy: the browser refused the clipboard');
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setSaid(null), SAID_MS);
  };
  return (
    <span className="copy-control">
      <button type="button" className={className} aria-label={label} onClick={() => void copy()}>
        {children}
      </button>
      <span aria-live="polite" className="muted copy-status">
        {said}
      </span>
    </span>
  );
}
