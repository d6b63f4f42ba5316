/**
 * A tool's definition as consent sees it: the fields whose change must suspend a standing decision
 * (name, description, input and output schema, annotations), and the sha-256 pinning it.
 */
import type { Tool } from '@modelcontextprotocol/client';
import crypto from 'node:crypto';
import type { JsonObject, ToolHints } from '@contract';
import { canonicalJson, canonicalize } from './canonical-json';

/** The hashed part of a tool. */
export interface ToolDefinition {
  name: string;
  description?: string;
  inputSchema: JsonObject;
  outputSchema?: JsonObject;
  annotations?: JsonObject;
}

/** Catalog entries are replaced (never mutated) on list_changed, so identity is a safe cache key. */
const hashes = new WeakMap<Tool, string>();

/** The definition fields of a catalog tool, canonicalized. */
export function definitionOf(tool: Tool): ToolDefinition {
  return canonicalize({
    name: tool.name,
    description: tool.description,
    inputSchema: tool.inputSchema,
    outputSchema: tool.outputSchema,
    annotations: tool.annotations,
  }) as ToolDefinition;
}

/** sha-256 (hex) over the canonical JSON of the definition. */
export function hashDefinition(definition: ToolDefinition): string {
  return crypto.createHash('sha256').update(canonicalJson(definition)).digest('hex');
}

/** The definition hash of a catalog tool (cached per tool object). */
export function definitionHash(tool: Tool): string {
  let hash = hashes.get(tool);
  if (hash === undefined) {
    hash = hashDefinition(definitionOf(tool));
    hashes.set(tool, hash);
  }
  return hash;
}

/** The server's behaviour hints, only the known boolean/string fields (they are shown, never trusted). */
export function toolHints(tool: Tool): ToolHints | undefined {
  const a = tool.annotations as Record<string, unknown> | undefined;
  if (!a) return undefined;
  const hints: ToolHints = {};
  if (typeof a.title === 'string') hints.title = a.title;
  for (const key of ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const) {
    if (typeof a[key] === 'boolean') hints[key] = a[key] as boolean;
  }
  return Object.keys(hints).length > 0 ? hints : undefined;
}

/** sha-256 (hex) of the canonical JSON of call arguments: what the audit trail pins the call to. */
export function argsDigest(args: unknown): string {
  return digestOfCanonicalJson(canonicalJson(args));
}

/** The args digest of arguments whose canonical JSON is at hand already (see tools/audit-args.ts). */
export function digestOfCanonicalJson(json: string): string {
  // One-shot hashing (no Hash object per call): this runs for every tool call.
  return crypto.hash('sha256', json, 'hex');
}
