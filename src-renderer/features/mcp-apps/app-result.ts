/**
 * The tool result an app is given, from what the chat stored (its content parts, and the structured
 * content kept for tools with an app): the MCP `CallToolResult` shape the app expects.
 */
import { toMcpBlock, type JsonObject, type ToolResultPart } from '@contract';

export function callToolResultOf(
  parts: readonly ToolResultPart[],
  isError: boolean,
  structuredContent?: Record<string, unknown>,
): JsonObject {
  const content = parts.map((part) => toMcpBlock(part) as JsonObject);
  return {
    content,
    ...(isError ? { isError: true } : {}),
    ...(structuredContent ? { structuredContent: structuredContent as JsonObject } : {}),
  };
}
