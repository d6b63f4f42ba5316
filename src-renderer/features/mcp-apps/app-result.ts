/**
 * The tool result an app is given, from what the chat stored (its content parts, and the structured
 * content kept for tools with an app): the MCP `CallToolResult` shape the app expects.
 */
import type { JsonObject, ToolResultPart } from '../../../src-preload/contract';

export function callToolResultOf(
  parts: readonly ToolResultPart[],
  isError: boolean,
  structuredContent?: Record<string, unknown>,
): JsonObject {
  const content = parts.map((part): JsonObject => {
    switch (part.type) {
      case 'text':
        return { type: 'text', text: part.text };
      case 'image':
        return { type: 'image', data: part.data, mimeType: part.mediaType };
      case 'resource_link':
        return { ...part } as JsonObject;
      case 'resource':
        return {
          type: 'resource',
          resource: {
            uri: part.uri,
            ...(part.mimeType ? { mimeType: part.mimeType } : {}),
            ...(part.text !== undefined ? { text: part.text } : {}),
          },
        } as JsonObject;
    }
  });
  return {
    content,
    ...(isError ? { isError: true } : {}),
    ...(structuredContent ? { structuredContent: structuredContent as JsonObject } : {}),
  };
}
