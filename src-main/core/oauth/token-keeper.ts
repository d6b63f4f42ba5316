/**
 * Keeps one server's access token usable: hands it out before each request, and refreshes it
 * (through the SDK's `auth()`, with the silent provider) when it expires within a minute or the server
 * refused it. One refresh at a time per server: concurrent requests share the refresh in flight.
 */
import { auth, type AuthOptions } from '@modelcontextprotocol/client';
import type { PatchbayOAuthProvider } from './oauth-provider';
import type { IssuedTokenRecord } from './oauth-store';
import { expiresAt, type ServerCredentials } from './server-credentials';

/** Refresh when the access token expires within this long. */
const REFRESH_MARGIN_MS = 60_000;

/** How a refresh ended: renewed, or not (with the tokens it started from, and the error if one was thrown). */
export type RefreshOutcome =
  { renewed: true; record: IssuedTokenRecord } | { renewed: false; before: IssuedTokenRecord; failure?: unknown };

export interface TokenKeeperOptions {
  credentials: ServerCredentials;
  /** The silent provider in use (replaced on sign-out and URL changes). */
  provider(): PatchbayOAuthProvider;
  /**
   * What to pass `auth()` for this provider: server URL, the last challenge's scope and metadata
   * URL, the guarded fetch (discovering the authorization server first when the provider has not).
   */
  authOptions(provider: PatchbayOAuthProvider): Promise<AuthOptions>;
  now: () => Date;
  /** Every refresh that ran, for the sign-in state. */
  onRefreshed(outcome: RefreshOutcome): void;
}

export class TokenKeeper {
  private refreshing: Promise<boolean> | undefined;

  constructor(private readonly options: TokenKeeperOptions) {}

  /** The bearer token for the next request, or undefined when there is none that still works. */
  async token(): Promise<string | undefined> {
    let record = await this.options.credentials.latest();
    if (record && this.dueForRefresh(record)) {
      await this.refresh(false);
      record = await this.options.credentials.latest();
    }
    if (!record) return undefined;
    const expiry = expiresAt(record);
    return expiry !== undefined && expiry <= this.options.now().getTime() ? undefined : record.tokens.access_token;
  }

  /** Refreshes (sharing a refresh in flight); `force` even when the token is not due (the server refused it). */
  refresh(force: boolean): Promise<boolean> {
    this.refreshing ??= this.run(force).finally(() => (this.refreshing = undefined));
    return this.refreshing;
  }

  private dueForRefresh(record: IssuedTokenRecord): boolean {
    const expiry = expiresAt(record);
    return record.tokens.refresh_token !== undefined && expiry !== undefined && expiry - this.options.now().getTime() < REFRESH_MARGIN_MS;
  }

  private async run(force: boolean): Promise<boolean> {
    const before = await this.options.credentials.latest();
    if (!before?.tokens.refresh_token) return false;
    // A caller that read the tokens just before another refresh finished finds fresh ones here.
    if (!force && !this.dueForRefresh(before)) return true;
    const provider = this.options.provider();
    let result: string | undefined;
    let failure: unknown;
    try {
      // With a refresh token the SDK refreshes; if the server refuses it (invalid_grant), the SDK
      // discards the tokens and would start a new authorization, which the silent provider ignores.
      result = await auth(provider, await this.options.authOptions(provider));
    } catch (error) {
      failure = error;
    }
    const after = await this.options.credentials.latest();
    if (result === 'AUTHORIZED' && after) {
      this.options.onRefreshed({ renewed: true, record: after });
      return true;
    }
    // Discovery runs afresh next time, in case the server moved its authorization server.
    await provider.invalidateCredentials('discovery');
    this.options.onRefreshed({ renewed: false, before, ...(failure === undefined ? {} : { failure }) });
    return false;
  }
}
