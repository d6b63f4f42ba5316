import { useNow } from './use-now';

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['day', 86_400],
  ['hour', 3_600],
  ['minute', 60],
  ['second', 1],
];

/** "3 minutes ago"; anything under ten seconds (or a clock a little ahead) reads "just now". */
export function formatRelative(iso: string, now: number): string {
  const seconds = Math.max(0, Math.round((now - Date.parse(iso)) / 1000));
  if (!Number.isFinite(seconds)) return 'at an unknown time';
  if (seconds < 10) return 'just now';
  const format = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });
  const [unit, size] = UNITS.find(([, s]) => seconds >= s) ?? UNITS[UNITS.length - 1];
  return format.format(-Math.floor(seconds / size), unit);
}

/** A relative time that keeps itself current, with the absolute time in its title. */
export function RelativeTime({ iso }: { iso: string }) {
  const now = useNow();
  const date = new Date(iso);
  const absolute = Number.isNaN(date.getTime()) ? iso : date.toLocaleString();
  return (
    <time dateTime={iso} title={absolute}>
      {formatRelative(iso, now)}
    </time>
  );
}
