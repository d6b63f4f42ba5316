import type { CallResult, HostEvent, HostMethodName, HostSnapshot, LogEntry, LogStream, ServerView } from '../../../src-preload/contract';
import { DEFAULT_LOG_SETTINGS, DEFAULT_SETTINGS } from '../../../src-preload/contract';
import type { HostTransport } from '../../host-client';

/** A log entry as the host would send it. */
export function logEntry(seq: number, extra: Partial<LogEntry> = {}): LogEntry {
  return { seq, serverId: 'srv-1', stream: 'output', ts: Date.UTC(2026, 0, 1, 12, 0, 0, seq), level: 'info', text: `line ${seq}`, ...extra };
}

/**
 * A host behind a transport for the Logs components: it holds entries per stream, answers the log
 * queries from them (newest page, oldest first), records every call, and pushes events when told.
 */
export function fakeLogHost(servers: ServerView[], entries: LogEntry[] = []) {
  const calls: { method: HostMethodName; input: unknown }[] = [];
  const listeners = new Set<(event: HostEvent) => void>();
  const replies: Partial<Record<HostMethodName, (input: never) => unknown>> = {};
  const snapshot = {
    settings: DEFAULT_SETTINGS,
    servers,
    info: { version: '1' },
    logs: { settings: DEFAULT_LOG_SETTINGS, levels: {} },
  } as unknown as HostSnapshot;

  const query = (input: { serverId: string; stream: LogStream; text?: string; beforeSeq?: number; limit: number }) => {
    const matching = entries.filter(
      (e) =>
        e.serverId === input.serverId &&
        e.stream === input.stream &&
        (!input.text || e.text.toLowerCase().includes(input.text.toLowerCase())) &&
        (!input.beforeSeq || e.seq < input.beforeSeq),
    );
    const page = matching.slice(-input.limit);
    return { entries: page, hasMore: matching.length > page.length };
  };

  const transport: HostTransport = {
    async call(method, input): Promise<CallResult> {
      calls.push({ method, input });
      const custom = replies[method];
      if (custom) {
        try {
          return { ok: true, value: await custom(input as never) };
        } catch (error) {
          return { ok: false, error: { code: 'internal', message: (error as Error).message } };
        }
      }
      if (method === 'getSnapshot') return { ok: true, value: snapshot };
      if (method === 'queryLogs') return { ok: true, value: query(input as Parameters<typeof query>[0]) };
      return { ok: true, value: undefined };
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  const emit = (event: HostEvent) => listeners.forEach((listener) => listener(event));
  const callsOf = (method: HostMethodName) => calls.filter((c) => c.method === method).map((c) => c.input);
  return { transport, calls, callsOf, emit, replies, entries };
}
