import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import process from 'node:process';
import { NO_SANDBOX, ServerInputSchema, type PresetId, type ServerInputParsed } from '@contract';
import { outsideAsar } from './packaged-path';

/** A zero-set-up server shipped with the app as an npm dependency. */
interface PresetDefinition {
  name: string;
  packageName: string;
  args: (dataDir: string) => string[];
  env: (dataDir: string) => { key: string; value: string }[];
}

/** The command a preset is stored with; at launch it means "the app's own JavaScript runtime". */
export const BUILT_IN_NODE = 'node';

const PRESETS: Record<PresetId, PresetDefinition> = {
  everything: {
    name: 'Everything (demo)',
    packageName: '@modelcontextprotocol/server-everything',
    args: () => ['stdio'],
    env: () => [],
  },
  filesystem: {
    name: 'Filesystem',
    packageName: '@modelcontextprotocol/server-filesystem',
    // A folder of its own, never the whole home directory; the user can add folders by editing.
    args: (dataDir) => [path.join(dataDir, 'files')],
    env: () => [],
  },
  memory: {
    name: 'Memory',
    packageName: '@modelcontextprotocol/server-memory',
    args: () => [],
    // Its default file sits next to its code, which is read-only in an installed app.
    env: (dataDir) => [{ key: 'MEMORY_FILE_PATH', value: path.join(dataDir, 'memory.jsonl') }],
  },
};

/** The npm packages of the preset servers: the installed app must ship them runnable (see electron-builder.config.mjs). */
export const PRESET_PACKAGES: readonly string[] = Object.values(PRESETS).map((preset) => preset.packageName);

/** The server configuration one click adds; creates the preset's own folder when it needs one. */
export function presetInput(id: PresetId, dataDir: string, uniqueName: (base: string) => string): ServerInputParsed {
  const preset = PRESETS[id];
  if (id === 'filesystem') fs.mkdirSync(path.join(dataDir, 'files'), { recursive: true });
  return ServerInputSchema.parse({
    name: uniqueName(preset.name),
    command: BUILT_IN_NODE,
    args: [preset.packageName, ...preset.args(dataDir)],
    env: preset.env(dataDir).map((v) => ({ ...v, secret: false })),
    // Unsandboxed, said on its row: code shipped with the app, keeping its data in Patchbay's data
    // directory, which a sandbox hides from every server.
    sandbox: NO_SANDBOX,
  });
}

const requireFromHere = createRequire(import.meta.url);

function packageEntry(packageName: string): string | undefined {
  try {
    const manifestPath = requireFromHere.resolve(`${packageName}/package.json`);
    const manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8')) as { bin?: string | Record<string, string> };
    const bin = typeof manifest.bin === 'string' ? manifest.bin : Object.values(manifest.bin ?? {})[0];
    // In the installed app the package sits in app.asar; the child runs its unpacked copy.
    return bin ? outsideAsar(path.join(path.dirname(manifestPath), bin), (process as { resourcesPath?: string }).resourcesPath) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * How to launch a preset server with the app's own runtime, so users need no Node installed:
 * Electron's binary in Node mode (ELECTRON_RUN_AS_NODE=1; the runAsNode fuse stays on), or Node itself
 * in web mode. Returns undefined for anything that is not (or no longer) a preset launch.
 */
export function presetLaunch(
  preset: PresetId | undefined,
  command: string,
  args: string[],
): { command: string; args: string[]; env: Record<string, string> } | undefined {
  if (!preset || command !== BUILT_IN_NODE) return undefined;
  const [packageName, ...rest] = args;
  if (packageName !== PRESETS[preset].packageName) return undefined;
  const entry = packageEntry(packageName);
  if (!entry) return undefined;
  return { ...ownNodeRuntime(), args: [entry, ...rest] };
}

/**
 * The app's own JavaScript runtime as a command: Electron's binary in Node mode
 * (ELECTRON_RUN_AS_NODE=1; the runAsNode fuse stays on), or Node itself in web mode. Preset servers
 * and Node bundles run on it, so users need no Node installed.
 */
export function ownNodeRuntime(): { command: string; env: Record<string, string> } {
  return { command: process.execPath, env: process.versions.electron ? { ELECTRON_RUN_AS_NODE: '1' } : {} };
}
