/**
 * What a tool's definition says about MCP Apps (`_meta.ui`, SEP-1865) and tasks (`execution`):
 * which `ui://` resource shows it, who may call it, whether it runs as a task.
 *
 * Read here rather than with `@modelcontextprotocol/ext-apps`' `getToolUiResourceUri` /
 * `isToolVisibilityAppOnly`: those throw on a malformed URI and live in the AppBridge bundle, while
 * the core reads untrusted server metadata on every tools/list and must never throw on it (a tool
 * with a malformed UI declaration is simply a tool without an app). The renderer uses the library.
 */
import type { Tool } from '@modelcontextprotocol/client';
import type { ToolAppInfo, ToolAudience } from '@contract';

/** The deprecated flat key some servers still send beside `ui.resourceUri`. */
const FLAT_RESOURCE_URI_KEY = 'ui/resourceUri';
const AUDIENCES: readonly ToolAudience[] = ['model', 'app'];

/** The tool's app, when it declares a well-formed `ui://` resource. */
export function toolApp(tool: Pick<Tool, '_meta'>): ToolAppInfo | undefined {
  const meta = tool._meta as Record<string, unknown> | undefined;
  const ui = meta?.ui as Record<string, unknown> | undefined;
  const uri = typeof ui?.resourceUri === 'string' ? ui.resourceUri : meta?.[FLAT_RESOURCE_URI_KEY];
  if (typeof uri !== 'string' || !uri.startsWith('ui://') || uri.length > 8_192) return undefined;
  return { resourceUri: uri, visibility: visibilityOf(tool) };
}

/** Who may call the tool: `_meta.ui.visibility` when it is a valid list, else both (the spec's default). */
export function visibilityOf(tool: Pick<Tool, '_meta'>): ToolAudience[] {
  const ui = (tool._meta as Record<string, unknown> | undefined)?.ui as Record<string, unknown> | undefined;
  const declared = ui?.visibility;
  if (!Array.isArray(declared)) return [...AUDIENCES];
  const known = AUDIENCES.filter((audience) => declared.includes(audience));
  // An empty or unknown-only list would hide the tool from everyone; the spec has no such case: default.
  return known.length > 0 ? known : [...AUDIENCES];
}

/** True when the model (or the app) may call the tool: the spec's MUSTs for `tools/list` and app `tools/call`. */
export function visibleTo(tool: Pick<Tool, '_meta'>, audience: ToolAudience): boolean {
  // Asked on every call: a tool without a `_meta.ui` (most) is visible to both, no list made.
  if ((tool._meta as Record<string, unknown> | undefined)?.ui === undefined) return true;
  return visibilityOf(tool).includes(audience);
}

/** The tool's `execution.taskSupport`: `required` / `optional` mean it can run as a task. */
export function taskSupport(tool: Pick<Tool, 'execution'>): 'required' | 'optional' | 'forbidden' {
  const support = (tool.execution as { taskSupport?: unknown } | undefined)?.taskSupport;
  return support === 'required' || support === 'optional' ? support : 'forbidden';
}
