/**
 * What a `ServerSession` needs of its transport, whichever it is: a child process over stdio, or a
 * remote server over HTTP. The stdio-only parts (`pid`, `stderr`, `process`) are optional here and
 * absent from the remote transport altogether: the SDK tells a stdio transport by `'pid' in transport`.
 */
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import type { StderrRing } from '../process/stderr-ring';
import type { ExitInfo, ShutdownResult, StdioProcess } from '../process/stdio-process';

/**
 * Sees every JSON-RPC message on the wire, in and out, with its size in bytes (the protocol log); `json`
 * is the message's JSON as it crossed the wire when the transport has it (stdio), so it is not serialized twice.
 */
export type WireTap = (direction: 'in' | 'out', message: JSONRPCMessage, bytes: number, json?: string) => void;

/** Why the transport closed. */
export interface CloseReport {
  /**
   * stdio: `process-exited`, `stdout-closed`, `stdin-broken`; remote: `connection-lost` (network),
   * `session-expired` (the server no longer knows our `Mcp-Session-Id`); both: `closed-by-host`.
   */
  reason: 'closed-by-host' | 'process-exited' | 'stdout-closed' | 'stdin-broken' | 'connection-lost' | 'session-expired';
  /** Exit status, when the process had exited by the time of the report. */
  exit?: ExitInfo;
  /** What went wrong, in words (remote: "connection refused (127.0.0.1:3001)"). */
  detail?: string;
}

/** An SDK transport plus what the session supervises it by. */
export interface SessionTransport extends Transport {
  /** Why and how the connection ended, once it has. */
  readonly closeReport: CloseReport | undefined;
  /** Date.now() of the last JSON-RPC message received (for idle detection). */
  readonly lastMessageAt: number;
  /** Ends the connection for good (stdio: the shutdown escalation; remote: DELETE the session, close). */
  shutdown(): Promise<ShutdownResult | undefined>;
  readonly pid?: number;
  readonly stderr?: StderrRing;
  readonly process?: StdioProcess;
}
