import {
  commandRisks,
  escapeHiddenChars,
  formatCommandLine,
  hiddenCharRisk,
  type CommandRisk,
  type InstallPreview,
  type PreviewPair,
} from '@contract';
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
    risks: remote
      ? urlRisks(server.url, server.headers)
      : commandRisks({ command: server.command, args: server.args, env: plainValues(server.env) }),
  };
}

/** Secret values are the user's own: only their names are looked at. */
function plainValues(list: readonly { key: string; value?: string; secret: boolean }[]) {
  return list.map((pair) => (pair.secret ? { key: pair.key } : { key: pair.key, value: pair.value }));
}

/** A remote server runs nothing here; what can still mislead is a URL or header that reads otherwise than it is. */
function urlRisks(url: string, headers: readonly { key: string; value?: string; secret: boolean }[]): CommandRisk[] {
  return [
    hiddenCharRisk('The URL', url),
    ...plainValues(headers).flatMap((header) => [
      hiddenCharRisk(`The header name ${escapeHiddenChars(header.key)}`, header.key),
      header.value === undefined ? undefined : hiddenCharRisk(`The value of ${escapeHiddenChars(header.key)}`, header.value),
    ]),
  ].filter((risk) => risk !== undefined);
}
