/**
 * Why a server's program could not be launched, and the step-by-step diagnosis of a launch
 * (`diagnoseServer`): the shapes the server card and the Diagnose dialog show.
 */
import type { SandboxRuntime } from './sandbox';

/** Why a server's program could not be launched. */
export type LaunchProblemKind = 'command-not-found' | 'not-executable' | 'cwd-missing' | 'spawn-failed';

/** A field of the server's form a fix points at. */
export type LaunchFixField = 'command' | 'cwd';

/** One concrete way forward from a launch problem. */
export type LaunchFix =
  /** Change a field of the server (the form opens there). */
  | { kind: 'edit'; field: LaunchFixField; text: string }
  /** Install what provides the command (Node.js for `npx`, uv for `uvx`, Docker for `docker`…). */
  | { kind: 'install'; tool: string; url: string; text: string }
  /** Something to do outside Patchbay (use a full path, make a file executable…). */
  | { kind: 'hint'; text: string };

/** What the launch looked for and where, with the fixes that apply. */
export interface LaunchProblem {
  kind: LaunchProblemKind;
  /** The command as configured (what the user typed, or the preset's). */
  command: string;
  /** The file it resolved to, when one was found (not executable, or it failed to spawn). */
  resolved?: string;
  /** The folders searched, in order (the PATH Patchbay uses: the server's own, the login shell's, Patchbay's). */
  searched: string[];
  /** The working directory, for `cwd-missing`. */
  cwd?: string;
  fixes: LaunchFix[];
}

/** A step of a launch diagnosis. */
export interface DiagnosisStep {
  id: 'config' | 'cwd' | 'resolve' | 'executable' | 'sandbox' | 'spawn' | 'connect' | 'initialize' | 'tools';
  title: string;
  /** `skipped`: not tried, an earlier step failed. */
  status: 'running' | 'ok' | 'failed' | 'skipped';
  detail: string;
  durationMs?: number;
  /** Items worth listing one per line (the folders searched). */
  list?: string[];
  /** What the server wrote to stderr during the step (its last lines). */
  output?: string[];
}

/** A launch of a server re-run step by step (`diagnoseServer`), as far as it has got. */
export interface ServerDiagnosis {
  runId: string;
  serverId: string;
  serverName: string;
  startedAt: string;
  /** Every step has run (or was skipped). */
  done: boolean;
  /** Every step succeeded. */
  ok: boolean;
  steps: DiagnosisStep[];
  /** The launch problem found, with its fixes. */
  problem?: LaunchProblem;
  /**
   * Sandboxed: paths its launch names that the sandbox hides or shows read-only, and a path it failed
   * on outside the sandbox: the dialog offers Share folder and Run unsandboxed for them.
   */
  sandboxPaths?: Pick<SandboxRuntime, 'blockedPath' | 'pathNotes'>;
}
