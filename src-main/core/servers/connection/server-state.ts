/**
 * The observable state of one configured server, and the small formatting helpers every message
 * about a server's process uses (so "exit code 3" reads the same everywhere).
 */
import type {
  Implementation,
  PriorDiscovery,
  Prompt,
  ProtocolEra,
  Resource,
  ResourceTemplateType as ResourceTemplate,
  ServerCapabilities,
  Tool,
} from '@modelcontextprotocol/client';
import type { ExitInfo } from '../process/stdio-process';
import type { LaunchProblem } from '@contract';

/** What we learned about a server when it became ready. */
export interface ServerIdentity {
  /** Self-reported name and version (may be absent on a modern-era server). */
  serverInfo: Implementation | undefined;
  protocolVersion: string;
  era: ProtocolEra;
  capabilities: ServerCapabilities;
  instructions: string | undefined;
  /**
   * The era verdict to cache and pass back as `prior` on the next start: `legacy` skips the
   * `server/discover` probe, `modern` adopts the discover result with zero round trips.
   */
  eraVerdict: PriorDiscovery;
  pid: number;
}

/** The lists a server offers beside its tools: walked page by page by Patchbay itself (see `list-walker.ts`). */
export const CONTENT_LISTS = ['resources', 'resourceTemplates', 'prompts'] as const;
export type ContentListKind = (typeof CONTENT_LISTS)[number];

/** The server's tools, resources, resource templates and prompts (empty lists for undeclared capabilities). */
export interface ServerCatalog {
  tools: Tool[];
  resources: Resource[];
  resourceTemplates: ResourceTemplate[];
  prompts: Prompt[];
  /**
   * Why a content list is incomplete or missing, in words naming the server: listing failed, the
   * server repeated a page cursor, or the list reached Patchbay's item cap. Absent when complete.
   */
  notes?: Partial<Record<ContentListKind, string>>;
}

/** A fresh empty catalog (a new object each time: callers may keep and mutate theirs). */
export function emptyCatalog(): ServerCatalog {
  return { tools: [], resources: [], resourceTemplates: [], prompts: [] };
}

/** A scheduled automatic restart. */
export interface PendingRestart {
  /** 1-based number of this restart since the last stable run. */
  attempt: number;
  maxAttempts: number;
  /** Epoch ms at which the restart will begin. */
  at: number;
}

/** Discriminated on `status`; `since` is the epoch ms of the transition. */
export type ServerState =
  | { status: 'stopped'; since: number; exit?: ExitInfo }
  | {
      status: 'starting';
      since: number;
      /** What is happening, for the UI: "launching", "installing… (npm warn …)", "listing tools". */
      detail: string;
      /** 1 for a user-initiated start, 2+ for automatic restarts. */
      attempt: number;
      /** Set while waiting to try again: the server asked to wait (429, 503…). */
      retry?: PendingRestart;
    }
  | { status: 'ready'; since: number; server: ServerIdentity }
  | {
      status: 'error';
      since: number;
      reason: string;
      stderrTail: string[];
      /** The program could not be launched: what was looked for, where, and the fixes. */
      launch?: LaunchProblem;
    }
  | {
      status: 'crashed';
      since: number;
      reason: string;
      exit: ExitInfo | undefined;
      stderrTail: string[];
      /** Set while an automatic restart is scheduled; absent once supervision gave up. */
      restart?: PendingRestart;
    };

/** "exit code 3", "signal SIGKILL", or "unknown exit status". */
export function describeExit(exit: ExitInfo | undefined): string {
  if (!exit) return 'unknown exit status';
  if (exit.signal) return `signal ${exit.signal}`;
  if (exit.code !== null) return `exit code ${exit.code}`;
  return 'unknown exit status';
}

/** "1.5 s", "60 s", "10 min". */
/** A wait in whole seconds, rounded up (never shown shorter than it is): "30 s", "2 min". */
export function formatWait(ms: number): string {
  return formatDuration(Math.ceil(ms / 1000) * 1000);
}

export function formatDuration(ms: number): string {
  if (ms >= 60_000 && ms % 60_000 === 0) return `${ms / 60_000} min`;
  const seconds = ms / 1000;
  return `${Number.isInteger(seconds) ? seconds : seconds.toFixed(1)} s`;
}
