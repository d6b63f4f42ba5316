import type { HostInfo, LogEntry, ServerDiagnostics, ServerView } from '@contract';
import type { LaunchInfo } from '../server-fleet/connection-plugins';
import type { ServerIdentity } from '../servers/connection/server-state';
import { REDACTED, type Redactor } from './redactor';

/** Everything a diagnostics report is made of. */
export interface DiagnosticsInput {
  host: HostInfo;
  server: ServerView;
  launch?: LaunchInfo;
  resolvedCommand?: string;
  /** The last time the server was ready (a crashed server's runtime no longer says). */
  identity?: ServerIdentity;
  lastStderr: string[];
  recentHost: LogEntry[];
  /** The app's own log file: where it is and its last lines (all servers, the app's own events). */
  appLog?: { path: string; tail: string[] };
  redactor: Redactor;
  now: Date;
}

const quote = (arg: string) => (/[\s"'\\]/.test(arg) || arg === '' ? JSON.stringify(arg) : arg);

/**
 * A plain-text report for a bug report or a support chat: what ran, how it ended, what it last said.
 * Secret values never appear (shown as [REDACTED]); the whole text goes through the server's redactor too.
 */
export function buildDiagnostics(input: DiagnosticsInput): ServerDiagnostics {
  const { host, server, launch, identity } = input;
  const { config, runtime } = server;
  const lines: string[] = [];
  const add = (label: string, value: string | undefined) => value !== undefined && value !== '' && lines.push(`${label}: ${value}`);

  lines.push(`Patchbay diagnostics for server "${config.name}" (${config.id})`);
  add('Generated', input.now.toISOString());
  add('Patchbay', `${host.version} (${host.mode} mode) on ${host.platform}, ${host.runtime}`);
  add('Status', `${runtime.status} since ${runtime.since}${runtime.reason ? ` — ${runtime.reason}` : ''}`);
  if (runtime.exit)
    add('Exit status', runtime.exit.signal ? `signal ${runtime.exit.signal}` : `exit code ${runtime.exit.code ?? 'unknown'}`);
  if (runtime.restart) add('Automatic restart', `attempt ${runtime.restart.attempt} of ${runtime.restart.of} at ${runtime.restart.at}`);
  if (config.transport === 'http') {
    add('URL', config.url);
    add(
      'Transport',
      runtime.remote
        ? runtime.remote.transport === 'sse'
          ? 'HTTP+SSE (legacy)'
          : 'Streamable HTTP'
        : 'Streamable HTTP, HTTP+SSE as fallback',
    );
    add('Session', runtime.remote?.sessionId);
    add('Headers', config.headers.map((h) => (h.secret ? `${h.key} (secret)` : h.key)).join(', '));
    if (runtime.auth) add('Sign-in', `${runtime.auth.status}${runtime.auth.issuer ? ` with ${runtime.auth.issuer}` : ''}`);
  } else {
    add('Command', [launch?.command ?? config.command, ...(launch?.args ?? config.args)].map(quote).join(' '));
    add('Resolved command', input.resolvedCommand ?? 'not resolved (the server has not been launched in this session)');
    add('Working directory', launch?.cwd || config.cwd || '(home directory)');
  }
  const known = runtime.serverInfo
    ? runtime
    : identity && { serverInfo: identity.serverInfo, protocolVersion: identity.protocolVersion, era: identity.era };
  if (known) {
    add('Server', known.serverInfo ? `${known.serverInfo.name} ${known.serverInfo.version}` : 'did not say');
    add('Protocol', `${known.protocolVersion} (${known.era} era)${runtime.status === 'ready' ? '' : ', when last ready'}`);
  }
  if (runtime.capabilities) add('Capabilities', runtime.capabilities.join(', '));

  const env = launch?.env ?? config.env.map((v) => ({ key: v.key, value: v.value, secret: v.secret }));
  lines.push('', `Environment (${env.length} configured):`);
  for (const v of env) lines.push(`  ${v.key}=${v.secret ? `${REDACTED} (secret)` : (v.value ?? '')}`);

  lines.push('', `Last stderr lines (${input.lastStderr.length}):`);
  for (const line of input.lastStderr) lines.push(`  ${line}`);

  if (input.recentHost.length > 0) {
    lines.push('', 'Recent host events:');
    for (const entry of input.recentHost) lines.push(`  ${new Date(entry.ts).toISOString()} ${entry.level.padEnd(7)} ${entry.text}`);
  }
  if (input.appLog) {
    lines.push('', `App log: ${input.appLog.path} (last ${input.appLog.tail.length} lines)`);
    for (const line of input.appLog.tail) lines.push(`  ${line}`);
  }
  return { text: input.redactor.redact(lines.join('\n')), lastStderr: input.lastStderr };
}
