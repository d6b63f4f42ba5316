import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import {
  HostCallError,
  MAX_UPLOAD_BYTES,
  ServerInputSchema,
  type bundleMethods,
  type HandlersFor,
  type InstallSource,
  type OpenRequest,
} from '@contract';
import type { Clock } from '../clock';
import type { InstallKind } from '../install/install-kind';
import { toPreview } from '../install/install-preview';
import type { SecretBox } from '../secrets/secret-box';
import { BUILT_IN_NODE, ownNodeRuntime } from '../server-config/presets';
import type { ServerConfigRepository, StoredServer } from '../server-config/server-config-repository';
import type { LaunchOverride } from '../server-fleet/launch-spec';
import { uniqueServerName } from '../server-fleet/server-handlers';
import type { UploadSessions } from '../uploads/upload-sessions';
import { fillConfig, fillSensitiveArgs, userConfigFields, userConfigValue, type StoredSetting } from './bundle-config';
import { BundleFiles } from './bundle-files';
import { describeBundle, inspectBundle, type InspectedBundle } from './bundle-inspect';
import { platformConfig } from './bundle-manifest';
import { BundleRepository, type SettingRow } from './bundle-repository';
import { ZipRefusedError, type ZipLimits } from '../safe-zip';

type BundleSource = Extract<InstallSource, { kind: 'bundle' }>;

export interface BundleAreaDeps {
  db: Database.Database;
  dataDir: string;
  secrets: SecretBox;
  clock: Clock;
  repo: ServerConfigRepository;
  uploads: UploadSessions;
  /** A pending open request by id: one to install a bundle names the `.mcpb` file the operating system asked Patchbay to open. */
  openRequest: (id: string) => OpenRequest | undefined;
  /** Finds a program on the user's PATH (for `uv`); undefined when it is not there. */
  findCommand: (name: string) => Promise<string | undefined>;
  /** Archive limits (tests make them small). */
  limits?: ZipLimits;
}

/** A bundle opened and checked, waiting for the user to install it. */
interface OpenedBundle {
  file: string;
  /** An uploaded file is ours to delete; a file the user opened is not. */
  ownsFile: boolean;
  bundle: InspectedBundle;
  openedAt: number;
}

/** Opened bundles are forgotten after this long (their upload deleted); at most this many are held (in memory) at once. */
const OPEN_BUNDLE_MS = 60 * 60_000;
const MAX_OPEN_BUNDLES = 4;

/**
 * MCP bundles: opening one (checked, nothing written), installing it into `bundles/<id>/` with the
 * user's settings (sensitive ones sealed), running it (Node bundles on the app's own Node, Python ones
 * through uv), updating it in place (same id: its settings kept), and deleting its files with its server.
 */
export function createBundleArea(deps: BundleAreaDeps) {
  const files = new BundleFiles(deps.dataDir);
  const bundles = new BundleRepository(deps.db);
  const opened = new Map<string, OpenedBundle>();

  const forget = (token: string) => {
    const entry = opened.get(token);
    opened.delete(token);
    if (entry?.ownsFile) fs.rmSync(entry.file, { force: true });
  };
  const sweep = () => {
    const now = deps.clock.now().getTime();
    for (const [token, entry] of opened) if (now - entry.openedAt > OPEN_BUNDLE_MS) forget(token);
    while (opened.size > MAX_OPEN_BUNDLES) forget(opened.keys().next().value!);
  };
  const openedOf = (token: string) => {
    sweep();
    const entry = opened.get(token);
    if (!entry) throw new HostCallError('invalid_input', 'That bundle is no longer open: open it again');
    return entry;
  };

  /** Stored settings of an installed bundle, for the form and for updates. */
  const storedSettings = (id: string) => new Map(bundles.settings(id).map((row) => [row.key, 'sealed' in row ? row.sealed : row.value]));
  const storedForForm = (id: string): Map<string, StoredSetting> =>
    new Map([...storedSettings(id)].map(([key, value]) => [key, Buffer.isBuffer(value) ? { sealed: true } : { value }]));

  /** What the runtime needs that may be missing: uv for Python bundles. */
  const checkRuntime = async (bundle: InspectedBundle) => {
    const type = bundle.manifest.server.type;
    if ((type === 'python' || type === 'uv') && !(await deps.findCommand('uv'))) {
      throw new ZipRefusedError(
        'it runs a Python server, which needs uv (https://docs.astral.sh/uv/), and uv was not found on your PATH: install uv, then open the bundle again',
      );
    }
  };

  const handlers: HandlersFor<typeof bundleMethods> = {
    openBundle: async (input) => {
      let file: string;
      let ownsFile = false;
      if ('uploadId' in input) {
        file = deps.uploads.take(input.uploadId, 'bundle').file;
        ownsFile = true;
      } else {
        const request = deps.openRequest(input.openRequestId);
        const found = request?.kind === 'install-bundle' ? request.path : undefined;
        if (!found) throw new HostCallError('invalid_input', 'That request to open a bundle is gone');
        file = found;
      }
      let bundle: InspectedBundle;
      try {
        bundle = await inspectBundle(file, { maxBytes: MAX_UPLOAD_BYTES.bundle, limits: deps.limits });
        await checkRuntime(bundle);
      } catch (error) {
        if (ownsFile) fs.rmSync(file, { force: true });
        throw refused(error);
      }
      const token = crypto.randomUUID();
      opened.set(token, { file, ownsFile, bundle, openedAt: deps.clock.now().getTime() });
      sweep();
      const source: BundleSource = { kind: 'bundle', token };
      try {
        const plan = await installer.plan(source);
        return { ...plan, source, preview: toPreview(await installer.build(source, plan.suggestedName, {})) };
      } catch (error) {
        // Refused while planning (a program outside the bundle…): nothing of it is kept, its upload included.
        forget(token);
        throw error;
      }
    },
  };

  const installer: InstallKind<BundleSource> = {
    async plan(source) {
      const { bundle } = openedOf(source.token);
      const serverId = bundles.serverOf(bundle.id);
      const existing = serverId ? deps.repo.get(serverId) : undefined;
      return {
        about: describeBundle(bundle),
        suggestedName: existing?.name ?? uniqueServerName(deps.repo, bundle.manifest.display_name ?? bundle.manifest.name),
        fields: userConfigFields(bundle.manifest, storedForForm(bundle.id)),
        startByDefault: true,
        ...(existing ? { updates: { serverId: existing.id, name: existing.name } } : {}),
      };
    },

    async build(source, name, formValues) {
      const entry = openedOf(source.token);
      const { bundle } = entry;
      const { manifest, id } = bundle;
      const stored = storedSettings(id);
      const fields = userConfigFields(manifest, storedForForm(id));
      const values = new Map<string, string | number | boolean | string[]>();
      const missing: string[] = [];
      const settings: (SettingRow | { key: string; seal: string })[] = [];
      for (const field of fields) {
        const option = manifest.user_config![field.id];
        const { value, problem } = userConfigValue(field, option.multiple === true, formValues);
        if (problem) missing.push(problem);
        const kept = stored.get(field.id);
        if (value !== undefined) {
          values.set(field.id, value);
          settings.push(field.secret ? { key: field.id, seal: String(value) } : { key: field.id, value });
        } else if (field.secret && Buffer.isBuffer(kept)) {
          // Left empty while updating: the stored value stays, opened now for the configuration it feeds.
          values.set(field.id, await deps.secrets.open(kept));
          settings.push({ key: field.id, sealed: kept });
        }
      }
      const sensitive = new Set(fields.filter((field) => field.secret).map((field) => field.id));
      const bundleDir = files.dirOf(id);
      const filled = fillConfig(platformConfig(manifest), bundleDir, values, sensitive);
      const notes: string[] = [];
      if (filled.unknown.length > 0) notes.push(`Left as written (Patchbay does not know them): ${filled.unknown.join(', ')}`);
      let { command, args } = filled;
      const type = manifest.server.type;
      if (type === 'node' && /^node(\.exe)?$/i.test(command)) {
        command = BUILT_IN_NODE;
        notes.push('It runs on Patchbay’s own Node.js.');
      } else if (type === 'python' && /^python3?(\.exe)?$/i.test(command)) {
        args = ['run', '--no-project', 'python', ...args];
        command = 'uv';
      } else if (type === 'binary') {
        const program = path.resolve(bundleDir, command);
        if (!program.startsWith(bundleDir + path.sep))
          throw refused(new ZipRefusedError(`its program ${command} is not inside the bundle`));
        command = program;
      }
      const server = ServerInputSchema.parse({ name: name.trim() || manifest.name, transport: 'stdio', command, args, env: filled.env });
      const serverId = bundles.serverOf(id);
      const existing = serverId ? deps.repo.get(serverId) : undefined;
      return {
        server: existing
          ? {
              ...server,
              initTimeoutMs: existing.initTimeoutMs,
              requestTimeoutMs: existing.requestTimeoutMs,
              autoRestart: existing.autoRestart,
            }
          : server,
        missing,
        notes,
        bundleId: id,
        ...(existing ? { replaces: existing.id } : {}),
        prepare: async () => {
          const rows = await Promise.all(
            settings.map(async (setting): Promise<SettingRow> =>
              'seal' in setting ? { key: setting.key, sealed: await deps.secrets.seal(setting.seal) } : setting,
            ),
          );
          const moved = await unpack(entry, files);
          const before = bundles.get(id);
          const beforeSettings = bundles.settings(id);
          bundles.save(id, manifest, rows, deps.clock.now());
          return {
            finish: async () => moved.finish(),
            undo: async () => {
              moved.undo();
              if (before) bundles.save(id, before.manifest, beforeSettings, deps.clock.now());
              else bundles.remove(id);
            },
          };
        },
      };
    },

    async done(source) {
      forget(source.token);
    },
  };

  /** Bundle servers: `node` is the app's own Node, and sensitive values are put into the arguments only now. */
  const launchOverride: LaunchOverride = async (server: StoredServer) => {
    if (!server.bundleId) return undefined;
    const runtime = server.command === BUILT_IN_NODE ? ownNodeRuntime() : undefined;
    let args: string[] | undefined;
    if (server.args.some((arg) => arg.includes('${user_config.'))) {
      const secrets = new Map<string, string>();
      for (const row of bundles.settings(server.bundleId)) if ('sealed' in row) secrets.set(row.key, await deps.secrets.open(row.sealed));
      args = fillSensitiveArgs(server.args, secrets);
    }
    if (!runtime && !args) return undefined;
    return { ...(runtime ? { command: runtime.command, env: runtime.env } : {}), ...(args ? { args } : {}) };
  };

  /** A removed server takes its bundle with it: files and settings. */
  const onServerRemoved = async (server: StoredServer) => {
    if (!server.bundleId) return;
    files.remove(server.bundleId);
    bundles.remove(server.bundleId);
  };

  /** Whether a bundle is installed and not yet used by a server (what restoring a server that runs it needs). */
  const isInstalledAndFree = (id: string) =>
    bundles.get(id) !== undefined && fs.existsSync(files.dirOf(id)) && bundles.serverOf(id) === undefined;

  return {
    name: 'bundles',
    handlers,
    installer,
    launchOverride,
    onServerRemoved,
    isInstalledAndFree,
    version: (id: string) => bundles.get(id)?.version,
    dispose: () => {
      for (const token of [...opened.keys()]) forget(token);
    },
  };
}

/** Unpacks a checked bundle — the very bytes that were checked, held since it was opened — and moves it into place. */
async function unpack(entry: OpenedBundle, files: BundleFiles) {
  const staged = files.staging();
  try {
    await entry.bundle.zip.extractTo(staged);
    return files.moveIntoPlace(entry.bundle.id, staged);
  } catch (error) {
    files.discard(staged);
    throw refused(error);
  }
}

/** A refusal as the error the user sees; anything unexpected passes through as it is. */
function refused(error: unknown): unknown {
  if (error instanceof ZipRefusedError)
    return new HostCallError('invalid_input', `This bundle was refused: ${error.message}. Nothing was installed.`);
  return error;
}
