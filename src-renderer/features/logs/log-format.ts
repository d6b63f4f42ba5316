import type { LogEntry, LogStream } from '@contract';

/** The tab label of each stream (fixed names: see UI-LABELS.md). */
export const STREAM_LABELS: Record<LogStream, string> = {
  output: 'Output',
  messages: 'Messages',
  protocol: 'Protocol',
  host: 'Host',
};

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** "14:03:07.042" in local time: log lines are read against a clock, to the millisecond. */
export function formatClock(ts: number): string {
  const d = new Date(ts);
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}`;
}

/** The params/result preview of a protocol entry's text (the part after "(size, latency)"). */
export function protocolPreview(text: string): string {
  const end = text.indexOf(') ');
  return end >= 0 ? text.slice(end + 2) : '';
}

/**
 * Who asked for a protocol request other than the user or the model (a server's app), from the
 * entry's head ("→ tools/call #6 — from the app of X (119 B)"; its answer says "— for …" before "(154 B in 55 ms)").
 */
export function protocolInitiator(text: string): string | undefined {
  // `\s` before the unit: sizes are written with a no-break space (`formatBytes`), older stored entries with a space.
  return / — ((?:from|for) .+?) \(\d[\d.]*\s[KMG]?B[ )]/.exec(text)?.[1];
}

/** One entry as a line of plain text (Copy). */
export function entryLine(entry: LogEntry): string {
  const time = new Date(entry.ts).toISOString();
  const logger = entry.logger ? ` [${entry.logger}]` : '';
  return `${time} ${entry.level.toUpperCase().padEnd(9)}${logger} ${entry.text}`;
}

/** A file name for an export: server, stream and time, safe on every file system. */
export function exportFileName(serverName: string, stream: LogStream, now = new Date()): string {
  const safe = serverName.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '') || 'server';
  return `${safe}-${stream}-${now.toISOString().replace(/[:.]/g, '-')}.jsonl`;
}
