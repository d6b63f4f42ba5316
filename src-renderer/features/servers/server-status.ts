import type { PresetId, RemoteRuntime, ServerRuntime, ServerStatus } from '../../../src-preload/contract';

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

export function countsText(counts: NonNullable<ServerRuntime['counts']>): string {
  const n = (count: number, one: string) => `${count} ${one}${count === 1 ? '' : 's'}`;
  return [n(counts.tools, 'tool'), n(counts.resources, 'resource'), n(counts.prompts, 'prompt')].join(' · ');
}

/** A command line as one would type it, quoting arguments that need it. */
export { formatCommandLine as commandLine } from '../../../src-preload/contract';
