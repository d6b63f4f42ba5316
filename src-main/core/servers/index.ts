/**
 * The Servers capability's process and connection layer: spawning stdio MCP servers safely,
 * speaking to them through the SDK client, supervising them, and cleaning up after them.
 *
 * Entry points: `ServerConnection` (one supervised server), `reapRecordedLeftovers` (at host
 * start, for groups a previous run left behind), `LiveProcessStore` (to persist the records).
 */
export { CONNECTION_DEFAULTS, ServerConnection } from './server-connection';
export type { ConnectionTimeouts, RequestCallOptions, ServerConfig, ServerConnectionOptions } from './server-connection';
export { describeExit, emptyCatalog, formatStderrTail } from './server-state';
export type { PendingRestart, ServerCatalog, ServerIdentity, ServerState, ServerStatus } from './server-state';
export { ServerRequestError } from './request-errors';
export type { RequestFailureKind } from './request-errors';
export { LaunchError } from './launch-error';
export type { LaunchErrorCode } from './launch-error';
export { RESTART_DEFAULTS } from './restart-policy';
export type { RestartPolicyOptions } from './restart-policy';
export { DEFAULT_MAX_MESSAGE_BYTES, OversizedMessageError, StdioServerTransport } from './stdio-transport';
export type { StdioTransportOptions, TransportWarning } from './stdio-transport';
export type { CloseReport, SessionTransport } from './session-transport';
export { RemoteServerTransport } from './remote-transport';
export type { RemoteTransportMode, RemoteTransportOptions } from './remote-transport';
export { SHUTDOWN_DEFAULTS, StdioProcess } from './stdio-process';
export type { ExitInfo, ProcessSpec, ShutdownOptions, ShutdownResult, ShutdownStage } from './stdio-process';
export { InMemoryLiveProcessStore, reapLeftovers, reapRecordedLeftovers, recordFor } from './process-reaper';
export type { LiveProcessRecord, LiveProcessStore, ReapOptions, ReapOutcome, ReapResult } from './process-reaper';
export { getLoginShellPath, resetLoginShellPathCache } from './command-resolver';
export { buildChildEnv } from './child-env';
