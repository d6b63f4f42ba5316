/** Its own module because both tools.ts and tasks.ts need it (tools.ts imports tasks.ts). */
/** Who asked for a call: the user (Tools panel), the model (chat), or a server's app (MCP Apps). */
export const TOOL_CALL_ORIGINS = ['user', 'model', 'app'] as const;
export type ToolCallOrigin = (typeof TOOL_CALL_ORIGINS)[number];
