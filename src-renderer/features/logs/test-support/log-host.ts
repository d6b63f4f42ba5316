import type { LogEntry, LogStream, ServerView } from '@contract';
import { fakeHost } from '../../../test-support/fake-host';

/** A log entry as the host would send it. */
export function logEntry(seq: number, extra: Partial<LogEntry> = {}): LogEntry {
  return {
    seq,
    serverId: 'srv-1',
    stream: 'output',
    ts: Date.UTC(2026, 0, 1, 12, 0, 0, seq),
    level: 'info',
    text: `line ${seq}`,
    ...extra,
  };
}

/**
 * The fake host for the Logs components: it holds entries and answers the log queries from them
 * (newest page, oldest first; every server's when no server is named) the way the host's repository does.
 */
export function fakeLogHost(servers: ServerView[], entries: LogEntry[] = []) {
  const queryLogs = (input: { serverId?: string; stream: LogStream; text?: string; beforeSeq?: number; limit: number }) => {
    const matching = entries.filter(
      (e) =>
        (input.serverId === undefined || e.serverId === input.serverId) &&
        e.stream === input.stream &&
        (!input.text || e.text.toLowerCase().includes(input.text.toLowerCase())) &&
        (!input.beforeSeq || e.seq < input.beforeSeq),
    );
    const page = matching.slice(-input.limit);
    return { entries: page, hasMore: matching.length > page.length };
  };
  return fakeHost({ servers, replies: { queryLogs } });
}
