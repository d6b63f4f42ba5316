import type { ServerConfigView, PresetId, RemoteRuntime, ServerRuntime, ServerStatus, ServerView } from '@contract';

/** The one word each status reads as (tests and screen readers rely on these). */
export const STATUS_LABELS: Record<ServerStatus, string> = {
  stopped: 'Stopped',
  starting: 'Starting',
  ready: 'Ready',
  error: 'Error',
  crashed: 'Crashed',
};

export const PRESET_LABELS: Record<PresetId, string> = {
  everything: 'Everything (demo)',
  filesystem: 'Filesystem',
  memory: 'Memory',
};

export const REMOTE_TRANSPORT_LABELS: Record<RemoteRuntime['transport'], string> = {
  'streamable-http': 'Streamable HTTP',
  sse: 'HTTP+SSE (legacy)',
};

/** A session id short enough for a card (they are often 36-character UUIDs); the full one goes in a tooltip. */
export function shortSessionId(id: string): string {
  return id.length > 12 ? `${id.slice(0, 8)}…` : id;
}

/** Whether Start (rather than Stop) is the action that makes sense now. */
export function canStart(status: ServerStatus): boolean {
  return status === 'stopped' || status === 'error' || status === 'crashed';
}

/** A server row's buttons that change what runs. */
export type RunAction = 'start' | 'stop' | 'restart';

/**
 * One primary action per state, and the secondary ones that still make sense: Stopped → Start;
 * Starting → Stop; Ready → Stop (Restart beside it); Error → Restart; Crashed → Restart (and Stop
 * while an automatic restart is scheduled, to call it off).
 */
export function runActions(runtime: Pick<ServerRuntime, 'status' | 'restart'>): { primary: RunAction; secondary: RunAction[] } {
  switch (runtime.status) {
    case 'stopped':
      return { primary: 'start', secondary: [] };
    case 'starting':
      return { primary: 'stop', secondary: [] };
    case 'ready':
      return { primary: 'stop', secondary: ['restart'] };
    case 'error':
      return { primary: 'restart', secondary: [] };
    case 'crashed':
      return { primary: 'restart', secondary: runtime.restart ? ['stop'] : [] };
  }
}

export const RUN_ACTION_LABELS: Record<RunAction, string> = { start: 'Start', stop: 'Stop', restart: 'Restart' };

/** Protocol versions in plain words: what a person needs is how current it is; the date goes in the detail. */
const PROTOCOL_WORDS: Record<string, string> = {
  '2026-07-28': 'Stateless protocol (2026-07-28)',
  '2025-11-25': 'Current protocol (2025-11-25)',
  '2025-06-18': 'Recent protocol (2025-06-18)',
  '2025-03-26': 'Older protocol (2025-03-26)',
  '2024-11-05': 'Oldest protocol (2024-11-05)',
};

/**
 * The protocol a server speaks, as a label and a longer explanation (for a tooltip and the detail
 * page). The era names ("legacy", "modern") are how the SDK sorts versions, not words for users.
 */
export function protocolLabel(runtime: Pick<ServerRuntime, 'protocolVersion' | 'era'>): { label: string; detail: string } | undefined {
  const version = runtime.protocolVersion;
  if (!version) return undefined;
  const label = PROTOCOL_WORDS[version] ?? `Protocol ${version}`;
  const detail =
    runtime.era === 'modern'
      ? `MCP ${version}: every request stands on its own (no session); Patchbay found it with server/discover.`
      : `MCP ${version}: a session opened with initialize, as MCP servers have spoken since 2024.`;
  return { label, detail };
}

/** What a server row can be narrowed to. */
export const STATUS_FILTERS = ['all', 'ready', 'starting', 'stopped', 'failed'] as const;
export type StatusFilter = (typeof STATUS_FILTERS)[number];

export const STATUS_FILTER_LABELS: Record<StatusFilter, string> = {
  all: 'All',
  ready: 'Ready',
  starting: 'Starting',
  stopped: 'Stopped',
  failed: 'Error or crashed',
};

/** Whether a server is in the group a status filter names. */
export function inStatusFilter(status: ServerStatus, filter: StatusFilter): boolean {
  if (filter === 'all') return true;
  if (filter === 'failed') return status === 'error' || status === 'crashed';
  return status === filter;
}

/** Whether a server matches the search text: its name, command line, URL or the name it reports, case-insensitively. */
export function matchesServerSearch(server: ServerView, text: string): boolean {
  const needle = text.trim().toLowerCase();
  if (needle === '') return true;
  const { config, runtime } = server;
  return [config.name, config.command, ...config.args, config.url, runtime.serverInfo?.name ?? '', runtime.serverInfo?.title ?? ''].some(
    (field) => field.toLowerCase().includes(needle),
  );
}

export function countsText(counts: NonNullable<ServerRuntime['counts']>): string {
  const n = (count: number, one: string) => `${count} ${one}${count === 1 ? '' : 's'}`;
  return [n(counts.tools, 'tool'), n(counts.resources, 'resource'), n(counts.prompts, 'prompt')].join(' · ');
}

/** A command line as one would type it, quoting arguments that need it. */
export { formatCommandLine as commandLine } from '@contract';

/**
 * A server row's sandbox column in a few words: "Sandboxed · network blocked", "Not sandboxed", or
 * "Remote" for a server reached over HTTP (no process of ours to put in a sandbox).
 */
export function sandboxWords(config: Pick<ServerConfigView, 'transport' | 'sandbox'>): { sandboxed: boolean; text: string } {
  if (config.transport === 'http') return { sandboxed: false, text: 'Remote' };
  const sandbox = config.sandbox;
  if (!sandbox?.enabled) return { sandboxed: false, text: 'Not sandboxed' };
  const network =
    sandbox.network === 'hosts'
      ? `network: ${sandbox.hosts.length} ${sandbox.hosts.length === 1 ? 'host' : 'hosts'}`
      : `network ${sandbox.network}`;
  return { sandboxed: true, text: `Sandboxed · ${network}` };
}
