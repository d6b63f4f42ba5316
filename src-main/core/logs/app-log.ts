import path from 'node:path';
import type { HostEvent, LogLevel } from '@contract';
import type { HostEventBus } from '../events';
import type { Clock } from '../clock';
import { RotatingLogFile, type RotatingLogFileOptions } from './app-log-file';
import { PATTERNS_ONLY } from './redactor';

/** Where the app log lives inside the data directory. */
export function appLogPath(dataDir: string): string {
  return path.join(dataDir, 'logs', 'patchbay.log');
}

export interface AppLogOptions {
  dataDir: string;
  clock: Clock;
  /** A server's current name, for lines about it (its id alone says little to a person). */
  serverName(id: string): string | undefined;
  /** Test knobs for the file (size, files kept, flush delay). */
  file?: Omit<RotatingLogFileOptions, 'file'>;
}

/** Characters of an error's stack kept in one entry. */
const MAX_STACK_CHARS = 4_000;

/**
 * The app's own log file, for a person reading it after something went wrong: every server's Host
 * stream (spawns, versions, crashes, restarts, decisions — already redacted by the log service) and
 * the app's own events and errors, one line each, secrets redacted like everywhere else.
 */
export class AppLog {
  private readonly file: RotatingLogFile;

  constructor(private readonly options: AppLogOptions) {
    this.file = new RotatingLogFile({ ...options.file, file: appLogPath(options.dataDir) });
  }

  get path(): string {
    return this.file.file;
  }

  /** One line from the app itself (`source`: app, window, updater, open…). */
  write(level: LogLevel, source: string, text: string): void {
    this.line(this.options.clock.now().getTime(), level, `[${source}]`, PATTERNS_ONLY.redact(text));
  }

  /** An error with its stack, e.g. an uncaught exception in the main process. */
  error(source: string, what: string, error: unknown): void {
    const stack = error instanceof Error ? (error.stack ?? `${error.name}: ${error.message}`) : String(error);
    this.write('error', source, `${what}: ${stack.slice(0, MAX_STACK_CHARS)}`);
  }

  /** Follows the host's events: Host-stream entries, open requests, update failures, window crashes. */
  follow(events: HostEventBus): () => void {
    return events.subscribe((event) => this.record(event));
  }

  /** The last lines, oldest first (for diagnostics). */
  tail(count: number): string[] {
    return this.file.tail(count);
  }

  flushSync(): void {
    this.file.flushSync();
  }

  close(): void {
    this.file.close();
  }

  private record(event: HostEvent): void {
    switch (event.name) {
      case 'logAppended':
        for (const entry of event.payload.entries) {
          if (entry.stream !== 'host') continue;
          this.line(entry.ts, entry.level, this.serverTag(entry.serverId), `${entry.event ?? 'host'}: ${entry.text}`);
        }
        for (const skipped of event.payload.skipped) {
          if (skipped.stream === 'host')
            this.write(
              'warning',
              'app',
              `${skipped.count} Host entries of ${this.serverTag(skipped.serverId)} arrived too fast to be logged here (the Logs page has them)`,
            );
        }
        break;
      case 'openRequestReceived': {
        const request = event.payload;
        const what =
          request.kind === 'install-bundle'
            ? `install the bundle ${request.path}`
            : request.kind === 'install-link'
              ? `install the server "${request.server.name}" from a link`
              : `open ${request.input.slice(0, 200)}: refused, ${request.reason}`;
        this.write(request.kind === 'rejected' ? 'warning' : 'info', 'open', `Asked (${request.source}) to ${what}`);
        break;
      }
      case 'updateStateChanged':
        if (event.payload.status === 'error') this.write('warning', 'updater', `Update failed: ${event.payload.message}`);
        if (event.payload.status === 'ready')
          this.write(
            'info',
            'updater',
            `Update ${event.payload.version} downloaded${event.payload.installOnQuit ? ', installs when Patchbay quits' : ''}`,
          );
        break;
      case 'windowRecoveryChanged':
        if (event.payload)
          this.write(
            'error',
            'window',
            `The window's renderer ended (${event.payload.reason}, exit code ${event.payload.exitCode}); it was reloaded, servers kept running`,
          );
        break;
    }
  }

  private serverTag(serverId: string): string {
    const name = this.options.serverName(serverId);
    return name ? `[server ${JSON.stringify(name)} ${serverId}]` : `[server ${serverId}]`;
  }

  private line(ts: number, level: LogLevel, tag: string, text: string): void {
    // One entry, one line: a multi-line text (a stack) is indented under its first line.
    this.file.append(`${new Date(ts).toISOString()} ${level.toUpperCase().padEnd(9)} ${tag} ${text.replace(/\r?\n/g, '\n    ')}`);
  }
}
