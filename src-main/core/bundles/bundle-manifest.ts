/**
 * An MCP bundle's `manifest.json`, checked with the schemas of `@anthropic-ai/mcpb` (one strict schema
 * per manifest version, 0.1 to 0.4), then for what the schema cannot know: a usable id, an entry point
 * that is a file in this archive, and this platform among the supported ones.
 */
import { VERSIONED_MANIFEST_SCHEMAS } from '@anthropic-ai/mcpb/schemas';
import path from 'node:path';
import type { ZipItem } from '../safe-zip';
import { ZipRefusedError } from '../safe-zip';

/** The part of a manifest Patchbay uses (every version has it; the schema checked the rest). */
export interface BundleManifest {
  manifest_version?: string;
  dxt_version?: string;
  name: string;
  display_name?: string;
  version: string;
  description: string;
  author: { name: string; email?: string; url?: string };
  repository?: { type: string; url: string };
  homepage?: string;
  server: {
    type: 'node' | 'python' | 'binary' | 'uv';
    entry_point: string;
    mcp_config: McpConfig & { platform_overrides?: Record<string, Partial<McpConfig>> };
  };
  tools?: { name: string; description?: string }[];
  tools_generated?: boolean;
  prompts?: { name: string; description?: string }[];
  prompts_generated?: boolean;
  license?: string;
  compatibility?: { claude_desktop?: string; platforms?: string[]; runtimes?: { python?: string; node?: string } };
  user_config?: Record<string, UserConfigOption>;
}

export interface McpConfig {
  command: string;
  args?: string[];
  env?: Record<string, string>;
}

export interface UserConfigOption {
  type: 'string' | 'number' | 'boolean' | 'directory' | 'file';
  title: string;
  description: string;
  required?: boolean;
  default?: string | number | boolean | string[];
  multiple?: boolean;
  sensitive?: boolean;
  min?: number;
  max?: number;
}

/** Largest manifest read. */
export const MAX_MANIFEST_BYTES = 1024 * 1024;

/** The manifest version a manifest declares, if this build of mcpb knows it. */
function manifestVersion(raw: unknown): keyof typeof VERSIONED_MANIFEST_SCHEMAS | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const declared =
    (raw as { manifest_version?: unknown; dxt_version?: unknown }).manifest_version ?? (raw as { dxt_version?: unknown }).dxt_version;
  return typeof declared === 'string' && Object.hasOwn(VERSIONED_MANIFEST_SCHEMAS, declared)
    ? (declared as keyof typeof VERSIONED_MANIFEST_SCHEMAS)
    : undefined;
}

/** Parses and validates manifest.json; throws a refusal listing what is wrong. */
export function parseManifest(bytes: Buffer | undefined): BundleManifest {
  if (!bytes) throw new ZipRefusedError('it has no manifest.json at its top level');
  let raw: unknown;
  try {
    raw = JSON.parse(bytes.toString('utf8'));
  } catch (error) {
    throw new ZipRefusedError(`its manifest.json is not valid JSON (${(error as Error).message})`);
  }
  const version = manifestVersion(raw);
  if (!version) {
    throw new ZipRefusedError(
      `its manifest_version is missing or unknown (Patchbay reads ${Object.keys(VERSIONED_MANIFEST_SCHEMAS).join(', ')})`,
    );
  }
  const result = VERSIONED_MANIFEST_SCHEMAS[version].safeParse(raw);
  if (!result.success) {
    const issues = result.error.issues.slice(0, 5).map((issue) => `${issue.path.join('.') || 'manifest'}: ${issue.message}`);
    throw new ZipRefusedError(`its manifest is not valid (${issues.join('; ')})`);
  }
  return result.data as BundleManifest;
}

/** The bundle's id: its manifest name, as a folder name (`bundles/<id>/`). */
export function bundleIdOf(manifest: BundleManifest): string {
  const id = manifest.name
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '')
    .slice(0, 100);
  if (!id) throw new ZipRefusedError(`its name ${JSON.stringify(manifest.name.slice(0, 60))} cannot be used as an id`);
  return id;
}

/** The launch configuration for this platform (its override, when the manifest has one). */
export function platformConfig(manifest: BundleManifest, platform: NodeJS.Platform = process.platform): McpConfig {
  const { platform_overrides: overrides, ...base } = manifest.server.mcp_config;
  const override = overrides?.[platform];
  return {
    command: override?.command ?? base.command,
    args: override?.args ?? base.args ?? [],
    env: override?.env ?? base.env ?? {},
  };
}

/**
 * What the schema cannot check: the entry point is a file of this archive (not outside it), and this
 * platform is one the bundle supports.
 */
export function checkManifestAgainstArchive(
  manifest: BundleManifest,
  items: readonly ZipItem[],
  platform: NodeJS.Platform = process.platform,
): void {
  const entry = path.posix.normalize(manifest.server.entry_point.replace(/^\.\//, ''));
  if (entry.startsWith('../') || entry === '..' || path.posix.isAbsolute(entry)) {
    throw new ZipRefusedError(`its entry point ${manifest.server.entry_point} is outside the bundle`);
  }
  if (!items.some((item) => !item.directory && item.name === entry)) {
    throw new ZipRefusedError(`its entry point ${manifest.server.entry_point} is missing from the archive`);
  }
  const platforms = manifest.compatibility?.platforms;
  if (platforms && platforms.length > 0 && !platforms.includes(platform)) {
    throw new ZipRefusedError(`it supports ${platforms.join(', ')}, not this computer (${platform})`);
  }
}
