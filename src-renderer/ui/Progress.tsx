import * as RadixProgress from '@radix-ui/react-progress';
import './progress.css';

export interface ProgressProps {
  /** Done so far; absent: under way, amount unknown. */
  value?: number;
  max: number;
  /** The accessible name: what is progressing. */
  label: string;
}

/** A themed progress bar (Radix Progress, role `progressbar`), the same in both themes. */
export function Progress({ value, max, label }: ProgressProps) {
  const known = value !== undefined && max > 0;
  const done = known ? Math.min(Math.max(value, 0), max) : 0;
  return (
    <RadixProgress.Root className="progress" value={known ? done : null} max={max > 0 ? max : 100} aria-label={label}>
      <RadixProgress.Indicator className="progress-indicator" style={{ width: known ? `${(done / max) * 100}%` : undefined }} />
    </RadixProgress.Root>
  );
}
