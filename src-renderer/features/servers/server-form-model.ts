import type { ClientAuthKind, SandboxNetwork, ServerConfigView, ServerInput, ServerTransportKind, SignInMode } from '@contract';
import type { FieldIssue } from '../../ui/call-errors';
import {
  ENV_SYNTAX,
  HEADER_SYNTAX,
  pairIssueMessage,
  pairsDraftFrom,
  toPairInputs,
  type PairsDraft,
  type SentPairs,
} from './key-value-lines';

export { SECRET_PLACEHOLDER } from './key-value-lines';

export type FormField =
  | 'name'
  | 'command'
  | 'args'
  | 'env'
  | 'cwd'
  | 'url'
  | 'headers'
  | 'oauthClientId'
  | 'oauthClientSecret'
  | 'oauthPrivateKey'
  | 'oauthAssertionCommand'
  | 'oauthIssuer'
  | 'idpIssuer'
  | 'idpTokenEndpoint'
  | 'idpClientId'
  | 'idpClientSecret'
  | 'idpIdTokenCommand'
  | 'initTimeoutMs'
  | 'requestTimeoutMs'
  | 'sandbox'
  | 'form';
export type FormErrors = Partial<Record<FormField, string>>;

/** The sign-in fields (under Advanced, for a remote server). */
export const SIGN_IN_FIELDS = [
  'oauthClientId',
  'oauthClientSecret',
  'oauthPrivateKey',
  'oauthAssertionCommand',
  'oauthIssuer',
  'idpIssuer',
  'idpTokenEndpoint',
  'idpClientId',
  'idpClientSecret',
  'idpIdTokenCommand',
] as const satisfies readonly FormField[];

/** The fields each transport shows; an issue on a field that is not shown goes to the form. */
const SHOWN: Record<ServerTransportKind, readonly FormField[]> = {
  stdio: ['name', 'command', 'args', 'env', 'cwd', 'sandbox', 'initTimeoutMs', 'requestTimeoutMs'],
  http: ['name', 'url', 'headers', ...SIGN_IN_FIELDS, 'initTimeoutMs', 'requestTimeoutMs'],
};

/**
 * Everything the form holds, as typed (strings where the user types). Both transports' fields are
 * kept, so switching Type back and forth loses nothing; only the chosen one's are sent.
 */
export interface ServerDraft {
  transport: ServerTransportKind;
  name: string;
  command: string;
  /** One argument per line. */
  args: string;
  /** `KEY=value` per line. */
  env: PairsDraft;
  cwd: string;
  url: string;
  /** `Name: value` per line. */
  headers: PairsDraft;
  oauthClientId: string;
  /** A new client secret; empty keeps the stored one (which never reaches the renderer). */
  oauthClientSecret: string;
  signInMode: SignInMode;
  oauthClientAuth: ClientAuthKind;
  /** A new private key (PEM); empty keeps the stored one. */
  oauthPrivateKey: string;
  oauthAssertionCommand: string;
  oauthIssuer: string;
  idpIssuer: string;
  idpTokenEndpoint: string;
  idpClientId: string;
  /** A new client secret at the identity provider; empty keeps the stored one. */
  idpClientSecret: string;
  idpIdTokenCommand: string;
  initTimeoutS: string;
  requestTimeoutS: string;
  autoRestart: boolean;
  enabled: boolean;
  /** Run in a sandbox (local servers). */
  sandbox: boolean;
  sandboxNetwork: SandboxNetwork;
  /** The hosts of `Only these hosts`, one per line. */
  sandboxHosts: string;
}

/**
 * The form's fields for `config`, or for a new server: sandboxed, network allowed, where `sandboxSupported`
 * (the default every new local server gets; Run unsandboxed is turning the switch off).
 */
export function draftFrom(config?: ServerConfigView, sandboxSupported = false): ServerDraft {
  return {
    transport: config?.transport ?? 'stdio',
    name: config?.name ?? '',
    command: config?.command ?? '',
    args: config?.args.join('\n') ?? '',
    env: pairsDraftFrom(config?.env ?? [], ENV_SYNTAX),
    cwd: config?.cwd ?? '',
    url: config?.url ?? '',
    headers: pairsDraftFrom(config?.headers ?? [], HEADER_SYNTAX),
    oauthClientId: config?.oauthClientId ?? '',
    oauthClientSecret: '',
    signInMode: config?.signInMode ?? 'browser',
    oauthClientAuth: config?.oauthClientAuth ?? 'client_secret',
    oauthPrivateKey: '',
    oauthAssertionCommand: config?.oauthAssertionCommand ?? '',
    oauthIssuer: config?.oauthIssuer ?? '',
    idpIssuer: config?.idpIssuer ?? '',
    idpTokenEndpoint: config?.idpTokenEndpoint ?? '',
    idpClientId: config?.idpClientId ?? '',
    idpClientSecret: '',
    idpIdTokenCommand: config?.idpIdTokenCommand ?? '',
    initTimeoutS: String((config?.initTimeoutMs ?? 60_000) / 1000),
    requestTimeoutS: String((config?.requestTimeoutMs ?? 60_000) / 1000),
    autoRestart: config?.autoRestart ?? true,
    enabled: config?.enabled ?? true,
    sandbox: config ? (config.sandbox?.enabled ?? false) : sandboxSupported,
    // A new server gets the default's network (npx and uvx fetch their package as they start); one that
    // never had a sandbox is offered the strictest network when the user turns it on.
    sandboxNetwork: config?.sandbox?.enabled ? config.sandbox.network : config ? 'blocked' : 'allowed',
    sandboxHosts: config?.sandbox?.hosts.join('\n') ?? '',
  };
}

/** What was sent as pairs, to place the host's issues about them on the right line. */
export interface SentForm {
  transport: ServerTransportKind;
  env?: SentPairs;
  headers?: SentPairs;
}

function seconds(text: string): number | undefined {
  const value = Number(text.trim());
  return text.trim() !== '' && Number.isFinite(value) && value > 0 ? Math.round(value * 1000) : undefined;
}

/**
 * The ServerInput to send, or the problems the form can see without asking the host. `stored` is
 * the server being edited: its secrets' values never reach the renderer, only their names.
 */
export function toServerInput(
  draft: ServerDraft,
  stored?: ServerConfigView,
): { input: ServerInput; sent: SentForm } | { errors: FormErrors } {
  const errors: FormErrors = {};
  const remote = draft.transport === 'http';
  const pairs = remote
    ? toPairInputs(draft.headers, stored?.headers ?? [], HEADER_SYNTAX)
    : toPairInputs(draft.env, stored?.env ?? [], ENV_SYNTAX);
  if ('problem' in pairs) errors[remote ? 'headers' : 'env'] = pairs.problem;
  const initTimeoutMs = seconds(draft.initTimeoutS);
  const requestTimeoutMs = seconds(draft.requestTimeoutS);
  if (initTimeoutMs === undefined) errors.initTimeoutMs = 'Enter a number of seconds';
  if (requestTimeoutMs === undefined) errors.requestTimeoutMs = 'Enter a number of seconds';
  if ('problem' in pairs || initTimeoutMs === undefined || requestTimeoutMs === undefined) return { errors };

  const common = { name: draft.name.trim(), enabled: draft.enabled, initTimeoutMs, requestTimeoutMs, autoRestart: draft.autoRestart };
  if (remote) {
    // Always sent: left out, a field would default to '' and an edit would drop it. Secrets only
    // when typed: sent without them, the host keeps the stored ones.
    const oauth = {
      oauthClientId: draft.oauthClientId.trim(),
      ...(draft.oauthClientSecret !== '' ? { oauthClientSecret: draft.oauthClientSecret } : {}),
      signInMode: draft.signInMode,
      oauthClientAuth: draft.oauthClientAuth,
      ...(draft.oauthPrivateKey.trim() !== '' ? { oauthPrivateKey: draft.oauthPrivateKey.trim() } : {}),
      oauthAssertionCommand: draft.oauthAssertionCommand.trim(),
      oauthIssuer: draft.oauthIssuer.trim(),
      idpIssuer: draft.idpIssuer.trim(),
      idpTokenEndpoint: draft.idpTokenEndpoint.trim(),
      idpClientId: draft.idpClientId.trim(),
      ...(draft.idpClientSecret !== '' ? { idpClientSecret: draft.idpClientSecret } : {}),
      idpIdTokenCommand: draft.idpIdTokenCommand.trim(),
    };
    return {
      input: { transport: 'http', ...common, url: draft.url.trim(), headers: pairs.pairs, ...oauth },
      sent: { transport: 'http', headers: pairs },
    };
  }
  const args = draft.args
    .split(/\r?\n/)
    .map((arg) => arg.trim())
    .filter((arg) => arg !== '');
  const hosts = draft.sandboxHosts
    .split(/[\s,]+/)
    .map((host) => host.trim())
    .filter((host) => host !== '');
  const sandbox = { enabled: draft.sandbox, network: draft.sandboxNetwork, hosts };
  return {
    input: { transport: 'stdio', ...common, command: draft.command.trim(), args, env: pairs.pairs, cwd: draft.cwd.trim(), sandbox },
    sent: { transport: 'stdio', env: pairs },
  };
}

/**
 * Places the host's issues next to their fields. Paths may come prefixed with 'server' (updateServer's
 * input is `{id, server}`); env and header issues name the line they came from, since the form shows text.
 */
export function errorsFromIssues(issues: FieldIssue[], sent: SentForm): FormErrors {
  const grouped: Partial<Record<FormField, string[]>> = {};
  for (const issue of issues) {
    const path = issue.path[0] === 'server' ? issue.path.slice(1) : issue.path;
    const head = String(path[0] ?? '');
    const field: FormField = (SHOWN[sent.transport] as readonly string[]).includes(head) ? (head as FormField) : 'form';
    let message = issue.message;
    if ((field === 'env' || field === 'headers') && path.length > 1) {
      message = pairIssueMessage(sent[field], Number(path[1]), issue.message);
    } else if (field === 'args' && path.length > 1) {
      message = `Argument ${Number(path[1]) + 1}: ${issue.message}`;
    }
    (grouped[field] ??= []).push(message);
  }
  return Object.fromEntries(Object.entries(grouped).map(([field, messages]) => [field, messages.join('; ')]));
}

/** How a field changes the draft (and clears its own error). */
export type EditDraft = (patch: Partial<ServerDraft>, field?: keyof FormErrors) => void;
