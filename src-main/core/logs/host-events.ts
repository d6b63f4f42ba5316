/**
 * The host's own account of a server, as Host-stream entries: state changes, spawns, the negotiated
 * version, crashes with their exit status, restarts. Pure: state in, entries out.
 */
import type { LogLevel } from '@contract';
import { describeExit, formatDuration, type ServerState } from '../servers/connection/server-state';
import type { AppendInput, EntrySource } from './log-record';

/** What the previous state change left behind, to tell a change from a repeat. */
export interface StateMemory {
  status?: ServerState['status'];
  attempt?: number;
  phase?: string;
}

const host = (event: string, level: LogLevel, text: string, detail?: unknown): AppendInput => ({
  level,
  text,
  fields: { event },
  ...(detail === undefined ? {} : { detail }),
});

/** The first word of a starting detail ("listing tools" → "listing"): chatter within a phase is not repeated. */
const phaseOf = (detail: string) => detail.split(/[\s…(]/, 1)[0];

/** Entries for one state change (often none: a repeat of the same phase says nothing new). */
export function describeStateChange(memory: StateMemory, state: ServerState, now: number): AppendInput[] {
  const out: AppendInput[] = [];
  const previous = memory.status;
  switch (state.status) {
    case 'starting': {
      if (previous !== 'starting' || memory.attempt !== state.attempt) {
        out.push(
          state.attempt > 1
            ? host('restart', 'warning', `Automatic restart, attempt ${state.attempt - 1}`)
            : host('status', 'info', 'Starting'),
        );
      }
      const phase = phaseOf(state.detail);
      if (phase !== memory.phase) out.push(host('phase', 'debug', `Starting: ${state.detail}`));
      memory.phase = phase;
      memory.attempt = state.attempt;
      break;
    }
    case 'ready': {
      const { server } = state;
      const info = server.serverInfo ? `${server.serverInfo.name} ${server.serverInfo.version}` : 'the server';
      const capabilities = Object.keys(server.capabilities).sort().join(', ') || 'none';
      out.push(
        host(
          'negotiated',
          'info',
          `Ready: negotiated protocol ${server.protocolVersion} (${server.era} era) with ${info}; capabilities: ${capabilities}`,
          {
            protocolVersion: server.protocolVersion,
            era: server.era,
            serverInfo: server.serverInfo,
            capabilities: server.capabilities,
            pid: server.pid,
          },
        ),
      );
      break;
    }
    case 'error':
      out.push(host('error', 'error', `Failed to start: ${state.reason}`, { reason: state.reason, lastStderr: state.stderrTail }));
      break;
    case 'crashed': {
      out.push(
        host('crash', 'error', `Crashed (${describeExit(state.exit)}): ${state.reason}`, {
          reason: state.reason,
          exit: state.exit ?? null,
          lastStderr: state.stderrTail,
        }),
      );
      if (state.restart) {
        const { attempt, maxAttempts, at } = state.restart;
        out.push(host('restart', 'warning', `Restart ${attempt} of ${maxAttempts} in ${formatDuration(Math.max(0, at - now))}`));
      }
      break;
    }
    case 'stopped':
      if (previous !== undefined && previous !== 'stopped') {
        out.push(host('status', 'info', state.exit ? `Stopped (${describeExit(state.exit)})` : 'Stopped'));
      }
      break;
  }
  if (state.status !== 'starting') memory.phase = undefined;
  memory.status = state.status;
  return out;
}

/** The spawn entry: pid, the command as resolved on PATH, and its arguments. */
export function describeSpawn(
  pid: number,
  command: string,
  resolved: string | undefined,
  args: readonly string[],
  cwd: string,
): AppendInput {
  const line = [resolved ?? command, ...args.map((a) => (/[\s"']/.test(a) ? JSON.stringify(a) : a))].join(' ');
  return host('spawn', 'info', `Spawned pid ${pid}: ${line}`, { pid, command, resolvedCommand: resolved ?? null, args, cwd });
}

/** Level words loggers put near the start of a line, and the level each means. */
const LEVEL_WORD =
  /\b(emerg|emergency|alert|crit|critical|fatal|panic|err|error|exception|traceback|warn|warning|notice|info|debug|trace)\b/i;
const WORD_LEVEL: Record<string, LogLevel> = {
  emerg: 'emergency',
  emergency: 'emergency',
  alert: 'alert',
  crit: 'critical',
  critical: 'critical',
  fatal: 'critical',
  panic: 'critical',
  err: 'error',
  error: 'error',
  exception: 'error',
  traceback: 'error',
  warn: 'warning',
  warning: 'warning',
  notice: 'notice',
  info: 'info',
  debug: 'debug',
  trace: 'debug',
};

/**
 * stderr has no levels; most loggers put one near the start of the line ("ERROR", "[warn]", "level=debug").
 * The first level word in the first 64 characters decides; "info" otherwise. One regex per line: floods
 * go through here.
 */
export function guessStderrLevel(line: string): LogLevel {
  const match = LEVEL_WORD.exec(line.length > 64 ? line.slice(0, 64) : line);
  return match ? WORD_LEVEL[match[1].toLowerCase()] : 'info';
}

/** What an Output entry is made from later (see `EntrySource`): the text of one or more stderr lines. */
export class StderrEntry implements EntrySource {
  constructor(private readonly text: string) {}

  make(): AppendInput {
    return { level: guessStderrLevel(this.text), text: this.text };
  }
}
