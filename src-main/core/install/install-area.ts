import {
  defaultSandbox,
  HostCallError,
  type HandlersFor,
  type InstallPlan,
  type InstallPreview,
  type InstallSource,
  type installMethods,
  type InstallValues,
  type ServerView,
} from '@contract';
import type { Clock } from '../clock';
import type { SecretBox } from '../secrets/secret-box';
import type { ServerConfigRepository } from '../server-config/server-config-repository';
import type { ServerFleet } from '../server-fleet/server-fleet';
import { insertServer, replaceServer } from '../server-fleet/server-handlers';
import type { BuiltServer, InstallKind } from './install-kind';
import { createLinkInstaller } from './install-link';
import { toPreview } from './install-preview';
import { sandboxSupport } from '../sandbox/sandbox-support';

type SourceOf<K extends InstallSource['kind']> = Extract<InstallSource, { kind: K }>;

export interface InstallAreaDeps {
  repo: ServerConfigRepository;
  fleet: ServerFleet;
  secrets: SecretBox;
  clock: Clock;
  /** The kinds made elsewhere (a link is this area's own). */
  kinds: { [K in Exclude<InstallSource['kind'], 'link'>]: InstallKind<SourceOf<K>> };
  /** Forgets the open request an install answered (the link or bundle the operating system handed over). */
  dismissOpenRequest: (id: string) => Promise<void>;
  /** Whether servers can run in a sandbox here: new local servers from an install then start in one (default: ask the system). */
  sandboxSupported?: () => boolean;
}

/**
 * Plan, preview and install, whatever the source: each kind (registry, link, bundle) says what it is,
 * which fields it needs and which server its values make; this area turns that into the preview the
 * user sees and, on `install`, stores exactly that — refusing while a required field is empty.
 */
export function createInstallHandlers(deps: InstallAreaDeps): HandlersFor<typeof installMethods> {
  const kinds = { ...deps.kinds, link: createLinkInstaller(deps.repo) };
  const sandboxSupported = deps.sandboxSupported ?? (() => sandboxSupport().supported);
  const kindOf = <S extends InstallSource>(source: S) => kinds[source.kind] as unknown as InstallKind<S>;
  const defaults = (plan: Omit<InstallPlan, 'preview' | 'source'>): InstallValues =>
    Object.fromEntries(plan.fields.flatMap((field) => (field.default === undefined ? [] : [[field.id, field.default]])));

  // Code from a registry, a link or a bundle is a stranger's: a new local one starts sandboxed where
  // that is possible (network allowed: npx and uvx fetch the package as they start); a replaced
  // one keeps the sandbox the user gave it.
  const sandboxOf = (built: BuiltServer) =>
    built.replaces
      ? (deps.repo.get(built.replaces)?.sandbox ?? built.server.sandbox)
      : defaultSandbox(built.server.transport === 'stdio' && sandboxSupported());
  /** The preview, with a line saying whether it will run sandboxed and how. */
  const preview = (built: BuiltServer): InstallPreview => {
    const shown = toPreview(built);
    if (built.server.transport !== 'stdio') return shown;
    const sandbox = sandboxOf(built);
    const line = sandbox?.enabled
      ? `Runs sandboxed: sees only the folders you share with it; network ${sandbox.network === 'hosts' ? `only to ${sandbox.hosts.join(', ')}` : sandbox.network}.`
      : `Runs unsandboxed: it can read and write everything you can.${sandboxSupported() ? '' : ' This machine cannot run a sandbox (see the server form).'}`;
    return { ...shown, sandbox: line };
  };

  const build = async (source: InstallSource, name: string, values: InstallValues): Promise<BuiltServer> => {
    const kind = kindOf(source);
    const chosen = name.trim() || (await kind.plan(source)).suggestedName;
    return kind.build(source, chosen, values);
  };

  return {
    planInstall: async ({ source }) => {
      const plan = await kindOf(source).plan(source);
      const built = await kindOf(source).build(source, plan.suggestedName, defaults(plan));
      return { ...plan, source, preview: preview(built) };
    },

    previewInstall: async ({ source, name, values }) => preview(await build(source, name, values)),

    install: async ({ source, name, values, start, openRequestId }) => {
      const built = await build(source, name, values);
      if (built.missing.length > 0) {
        throw new HostCallError(
          'invalid_input',
          `Fill in ${built.missing.join(', ')} first`,
          built.missing.map((label) => ({ path: ['values', label], message: `${label} is required` })),
        );
      }
      // A server that still needs editing (an unresolved variable) is added disabled whatever was ticked.
      const sandbox = sandboxOf(built);
      const server = { ...built.server, enabled: start && built.server.enabled, sandbox };
      // A server being replaced stops first: its files are swapped under it (Windows cannot move a running program).
      if (built.replaces) await deps.fleet.stop(built.replaces);
      const prepared = await built.prepare?.();
      let view: ServerView;
      try {
        view = built.replaces
          ? await replaceServer(deps, built.replaces, server)
          : await insertServer(deps, server, built.bundleId ? { bundleId: built.bundleId } : {});
      } catch (error) {
        await prepared?.undo();
        throw error;
      }
      await prepared?.finish();
      if (built.replaces && server.enabled) void deps.fleet.start(built.replaces).catch(() => undefined);
      await kindOf(source).done?.(source);
      if (openRequestId) await deps.dismissOpenRequest(openRequestId);
      return deps.fleet.viewById(view.config.id);
    },
  };
}

/** The install area: one-click install links and the registry's and bundles' install kinds. */
export function createInstallArea(deps: InstallAreaDeps) {
  return { name: 'install', handlers: createInstallHandlers(deps) } as const;
}
