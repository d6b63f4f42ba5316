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
  clientCredentialsGrants: number;
  tokenExchanges: number;
  jwtBearerGrants: number;
  /** How the last client_credentials request authenticated: client_secret_basic, client_secret_post or private_key_jwt. */
  lastClientAuth: string | null;
  /** The claims and algorithm of the last private_key_jwt assertion that verified. */
  lastAssertion: { alg: string; iss: string; sub: string; aud: string | string[] } | null;
  /** The form of the last token exchange at the identity provider. */
  lastTokenExchange: Record<string, string> | null;
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
  /** What the metadata declares. */
  grantTypes?: string[];
  authMethods?: string[];
  /** The application the client_credentials grant accepts (a secret, or a public key for private_key_jwt). */
  app?: { clientId: string; clientSecret?: string; publicKeyPem?: string };
  /** Organisation sign-in: Patchbay's client at the identity provider, and at the authorization server. */
  idpClientId?: string;
  idpClientSecret?: string;
  xaaClientId?: string;
  xaaClientSecret?: string;
  /** Workload identity: the JWT bearer grant takes the platform's workload token from this public client. */
  workload?: { clientId: string };
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
  /** An ID token from the fixture's identity provider (`aud` defaults to its IdP client; `expired` one a minute old). */
  idToken(claims?: { sub?: string; email?: string; aud?: string; expired?: boolean }): Promise<string>;
  /** A workload token from the fixture's workload platform (`aud` defaults to the issuer). */
  workloadToken(claims?: { sub?: string; aud?: string; expired?: boolean }): Promise<string>;
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
    idToken: async ({ expired, ...claims } = {}) => {
      const query = new URLSearchParams({ ...(claims as Record<string, string>), ...(expired ? { expired: '1' } : {}) });
      return (await fetch(`${origin}/_idp/id-token?${query}`)).text();
    },
    workloadToken: async ({ expired, ...claims } = {}) => {
      const query = new URLSearchParams({ ...(claims as Record<string, string>), ...(expired ? { expired: '1' } : {}) });
      return (await fetch(`${origin}/_workload/token?${query}`)).text();
    },
  };
}
