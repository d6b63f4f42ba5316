import { MAX_APP_RESULT_CHARS, type JsonObject, type ToolCallOutcome } from '@contract';
import { toolApp } from '../tool-definition/tool-ui';
import type { ResultCache } from './result-cache';
import { previewResult } from './result-preview';
import { grown, identityOf, type ToolCallDone } from './tool-call';

/**
 * What the renderer gets for a finished call: the capped preview (never the whole of a big result),
 * with the full result kept in the LRU when the preview cut something, for `getToolResultPart`.
 */
export function toOutcome(done: ToolCallDone, results: ResultCache): ToolCallOutcome {
  const ran = done.status === 'ok' || done.status === 'tool_error';
  // The SDK validates structuredContent against a declared outputSchema and fails the call otherwise.
  const validated = ran && done.definition?.outputSchema !== undefined && done.result.structuredContent !== undefined;
  const preview = ran ? previewResult(done.result, validated) : { blocks: [], resultBytes: 0, cut: false };
  if (preview.cut) results.put(done.callId, done.result, preview.resultBytes);
  // A tool with an app gets its whole result to the app (MCP Apps), when it is not too large to send.
  const forApp = ran && done.definition && toolApp(done.definition) && preview.resultBytes <= MAX_APP_RESULT_CHARS;
  return grown(identityOf(done), {
    status: done.status,
    ...(done.error ? { error: done.error } : {}),
    blocks: preview.blocks,
    ...('structured' in preview && preview.structured ? { structured: preview.structured } : {}),
    startedAt: done.startedAt.toISOString(),
    durationMs: done.durationMs,
    resultBytes: preview.resultBytes,
    ...(forApp ? { appResult: done.result as JsonObject } : {}),
  });
}
