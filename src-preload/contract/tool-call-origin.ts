/** Its own module because tools.ts, tasks.ts and consent.ts need it (tools.ts imports tasks.ts). */
/** Who asked for a call: the user (Tools panel), the model (chat), or a server's app (MCP Apps). */
export const TOOL_CALL_ORIGINS = ['user', 'model', 'app'] as const;
export type ToolCallOrigin = (typeof TOOL_CALL_ORIGINS)[number];

/**
 * Which call: the one identity every record of a tool call carries, from the router's request to the
 * card and the audit trail (each stage adds its own fields to it, or picks what it needs).
 */
export interface ToolCallIdentity {
  callId: string;
  serverId: string;
  serverName: string;
  tool: string;
  origin: ToolCallOrigin;
}
