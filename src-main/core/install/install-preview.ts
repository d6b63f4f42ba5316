import { formatCommandLine, type InstallPreview, type PreviewPair } from '../../../src-preload/contract';
import type { BuiltServer } from './install-kind';

/** What the user sees before `Install`: the stored command line or URL, with secret values hidden. */
export function toPreview(built: BuiltServer): InstallPreview {
  const { server } = built;
  const pairs = (list: readonly { key: string; value?: string; secret: boolean }[]): PreviewPair[] =>
    list.map((pair) => (pair.secret ? { key: pair.key, secret: true } : { key: pair.key, secret: false, value: pair.value ?? '' }));
  const remote = server.transport === 'http';
  return {
    name: server.name,
    transport: server.transport,
    ...(remote ? { url: server.url } : { commandLine: formatCommandLine(server.command, server.args) }),
    ...(!remote && server.cwd ? { cwd: server.cwd } : {}),
    env: remote ? [] : pairs(server.env),
    headers: remote ? pairs(server.headers) : [],
    missing: built.missing,
    notes: built.notes,
  };
}
