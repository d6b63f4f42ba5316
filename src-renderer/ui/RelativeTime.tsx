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

/** "in 30 seconds", "in 2 minutes" for a time to come (a restart, a retry); "now" once it is due. */
export function formatUntil(iso: string, now: number): string {
  const seconds = Math.ceil((Date.parse(iso) - now) / 1000);
  if (!Number.isFinite(seconds)) return 'at an unknown time';
  if (seconds <= 0) return 'now';
  const format = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });
  const [unit, size] = UNITS.find(([, s]) => seconds >= s) ?? UNITS[UNITS.length - 1];
  return format.format(Math.round(seconds / size), unit);
}

/**
 * A relative time that keeps itself current, with the absolute time in its title; `future` for a
 * time to come (counted down every second).
 */
export function RelativeTime({ iso, future = false }: { iso: string; future?: boolean }) {
  const now = useNow(future ? 1000 : undefined);
  const date = new Date(iso);
  const absolute = Number.isNaN(date.getTime()) ? iso : date.toLocaleString();
  return (
    <time dateTime={iso} title={absolute}>
      {future ? formatUntil(iso, now) : formatRelative(iso, now)}
    </time>
  );
}
