/**
 * The OAuth fixture server (e2e/fixtures/oauth/oauth-mcp-server.mjs) as a real process on 127.0.0.1:
 * authorization server, protected-resource metadata and MCP endpoint in one. Runs in its own process
 * group, killed (group and all) when the test ends.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { onTestFinished } from 'vitest';
import { expectProcessGone, FIXTURES_DIR } from '../../../test-support/fixtures';
import { waitFor } from '../../servers/wait';

/** Counters the fixture keeps (GET /_stats). */
export interface FixtureStats {
  registrations: number;
  authorizeRequests: number;
  codeExchanges: number;
  refreshRequests: number;
  mcpRequests: number;
  unauthorized: number;
  lastAuthorizeScope: string | null;
}

/** Fault switches and knobs the fixture accepts at run time (POST /_config). */
export interface FixtureConfig {
  expiresIn?: number;
  refreshFails?: boolean;
  issMismatch?: boolean;
  asUrl?: string;
  omitPkce?: boolean;
  authorizeError?: string;
  authorizeErrorDescription?: string;
  email?: string;
  /** The issuer the metadata states (default: the fixture's origin). */
  metadataIssuer?: string;
  /** `code_challenge_methods_supported` (default ['S256']; `omitPkce` leaves it out). */
  pkceMethods?: string[];
  /** The token endpoint answers 307 to this URL. */
  tokenRedirect?: string;
  /** A 2025-03-26 server: no resource metadata; `fallback`: no authorization-server metadata either. */
  legacy?: 'metadata' | 'fallback';
}

export interface OAuthFixture {
  /** http://127.0.0.1:<port>: also the issuer. */
  origin: string;
  /** The MCP endpoint. */
  mcpUrl: string;
  stats(): Promise<FixtureStats>;
  configure(patch: FixtureConfig): Promise<void>;
  /** Makes the issued tokens stop working (access tokens, refresh tokens, or both). */
  revoke(only?: 'access' | 'refresh'): Promise<void>;
  output: string[];
}

/** Starts the fixture with extra command-line flags; stopped when the test finishes. */
export async function startOAuthFixture(flags: string[] = []): Promise<OAuthFixture> {
  const file = path.join(FIXTURES_DIR, 'oauth', 'oauth-mcp-server.mjs');
  const child = spawn(process.execPath, [file, '--port', '0', ...flags], { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const output: string[] = [];
  let exited = false;
  child.on('exit', () => (exited = true));
  child.stdout.on('data', (chunk: Buffer) => output.push(...chunk.toString('utf8').split('\n').filter(Boolean)));
  child.stderr.on('data', (chunk: Buffer) => output.push(...chunk.toString('utf8').split('\n').filter(Boolean)));
  const pid = child.pid!;
  onTestFinished(async () => {
    if (!exited) process.kill(-pid, 'SIGKILL');
    await expectProcessGone(pid);
  });
  const port = await waitFor(
    () => {
      if (exited) throw new Error(`OAuth fixture exited early:\n${output.join('\n')}`);
      const first = output[0];
      return first ? (JSON.parse(first) as { port: number }).port : undefined;
    },
    { what: 'the OAuth fixture to listen', timeoutMs: 10_000 },
  );
  const origin = `http://127.0.0.1:${port}`;
  const post = async (where: string, body: unknown) => {
    const response = await fetch(`${origin}${where}`, { method: 'POST', body: JSON.stringify(body) });
    if (!response.ok) throw new Error(`${where}: HTTP ${response.status}`);
  };
  return {
    origin,
    mcpUrl: `${origin}/mcp`,
    output,
    stats: async () => (await (await fetch(`${origin}/_stats`)).json()) as FixtureStats,
    configure: (patch) => post('/_config', patch),
    revoke: (only) => post(only ? `/_revoke?only=${only}` : '/_revoke', {}),
  };
}
