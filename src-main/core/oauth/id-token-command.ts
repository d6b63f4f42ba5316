/**
 * Gets the user's ID token from their organisation's identity provider by running the command the
 * user configured — as `kubectl`'s exec credential plugins do (`kubelogin get-token`, an SSO agent,
 * `gcloud auth print-identity-token`…). The command runs in the user's shell with the same small
 * environment as a server (never Patchbay's API keys), briefly, and its output is read as either the
 * bare token or JSON carrying it (`id_token`, `idToken`, `token`, or Kubernetes' `status.token`).
 * The same runs the command that prints a workload's identity token ("As an application" with workload
 * identity: `cat /var/run/secrets/tokens/mcp`, a CI job's OIDC token request…).
 */
import { exec } from 'node:child_process';
import { buildChildEnv } from '../servers/process/child-env';

const TIMEOUT_MS = 60_000;
const MAX_OUTPUT = 64 * 1024;
const JWT = /^[\w-]+\.[\w-]+\.[\w-]*$/;

export interface IdTokenCommandOptions {
  timeoutMs?: number;
  /** The environment Patchbay itself runs with (the allow-list is taken from it). */
  env?: NodeJS.ProcessEnv;
  /** The token it prints, in messages (default "ID token"). */
  token?: string;
}

/** Runs `command` and resolves with the ID token it printed; rejects saying what went wrong. */
export function runIdTokenCommand(command: string, options: IdTokenCommandOptions = {}): Promise<string> {
  const timeoutMs = options.timeoutMs ?? TIMEOUT_MS;
  const token = options.token ?? 'ID token';
  return new Promise((resolve, reject) => {
    exec(
      command,
      { timeout: timeoutMs, maxBuffer: MAX_OUTPUT, env: buildChildEnv(options.env ?? process.env), windowsHide: true },
      (error, stdout, stderr) => {
        if (error) {
          const killed = (error as { killed?: boolean }).killed;
          const detail = lastLine(stderr);
          if (killed) return reject(new Error(`the ${token} command did not finish within ${Math.round(timeoutMs / 1000)} s`));
          const exit = typeof error.code === 'number' ? `exit code ${error.code}` : (error.code ?? 'failed');
          return reject(new Error(`the ${token} command failed (${exit})${detail ? `: ${detail}` : ''}`));
        }
        const printed = idTokenIn(stdout);
        if (!printed) return reject(new Error(`the ${token} command printed no ${token} (a JWT, or JSON with id_token or token)`));
        resolve(printed);
      },
    );
  });
}

/** The ID token in a command's output, if there is one. */
export function idTokenIn(output: string): string | undefined {
  const text = output.trim();
  if (JWT.test(text)) return text;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  const record = (parsed ?? {}) as Record<string, unknown>;
  const status = (record.status ?? {}) as Record<string, unknown>;
  for (const candidate of [record.id_token, record.idToken, record.token, status.token]) {
    if (typeof candidate === 'string' && JWT.test(candidate.trim())) return candidate.trim();
  }
  return undefined;
}

function lastLine(text: string): string {
  // eslint-disable-next-line no-control-regex -- control characters from a command's stderr are dropped
  const lines = text.replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '').split('\n');
  const last =
    lines
      .map((line) => line.trim())
      .filter(Boolean)
      .at(-1) ?? '';
  return last.length > 200 ? `${last.slice(0, 199)}…` : last;
}
