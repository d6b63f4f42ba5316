/**
 * One server's tokens: the store's rows for that server, cached in memory (the transport asks for the
 * token before every request, and opening a sealed value may mean a keychain call), and bound to the
 * server URL they were obtained for, so editing a server's URL never sends its tokens elsewhere — and
 * to the way they were obtained, so a server switched from "as an application" to "as you" never
 * passes the application's token off as yours (or the other way round).
 */
import type { DpopSession, FetchLike, StoredOAuthTokens } from '@modelcontextprotocol/client';
import type { SignInMode } from '@contract';
import { accountFromTokens } from './account-name';
import { dpopFetch, dpopSession, isDpopBound, newDpopKey, openDpopKey, type StoredDpopKey } from './dpop-key';
import type { IssuedTokenRecord, OAuthCredentialStore, TokenRecord } from './oauth-store';

/** When a token record's access token expires (ms since epoch), or undefined when the response did not say. */
export function expiresAt(record: TokenRecord): number | undefined {
  const seconds = record.tokens.expires_in;
  return typeof seconds === 'number' && Number.isFinite(seconds) ? Date.parse(record.obtainedAt) + seconds * 1000 : undefined;
}

export class ServerCredentials {
  private readonly byIssuer = new Map<string, TokenRecord | null>();
  /** undefined: not loaded yet; null: known to have none. */
  private latestRecord: IssuedTokenRecord | null | undefined;
  /** The server's DPoP key and session (one per server, so the nonces it was given carry over). */
  private dpop: { stored: Promise<StoredDpopKey>; session: Promise<DpopSession> } | undefined;

  constructor(
    private readonly store: OAuthCredentialStore,
    readonly serverId: string,
    private readonly serverUrl: () => string,
    private readonly now: () => Date,
    private readonly mode: () => SignInMode = () => 'browser',
  ) {}

  /** The most recently saved tokens for the server's current URL. */
  async latest(): Promise<IssuedTokenRecord | undefined> {
    if (this.latestRecord === undefined) this.latestRecord = (await this.store.latestTokens(this.serverId)) ?? null;
    return this.usable(this.latestRecord);
  }

  /** The latest tokens as last loaded, without touching the store (for synchronous callers). */
  peekLatest(): IssuedTokenRecord | undefined {
    return this.usable(this.latestRecord ?? null);
  }

  async forIssuer(issuer: string): Promise<TokenRecord | undefined> {
    if (!this.byIssuer.has(issuer)) this.byIssuer.set(issuer, (await this.store.tokens(this.serverId, issuer)) ?? null);
    return this.usable(this.byIssuer.get(issuer) ?? null);
  }

  /**
   * Saves a token response. A refresh response usually has no `id_token`: the account name found at
   * sign-in is carried over. `how` says how the tokens were obtained (the 2025-03-26 way; as whom).
   */
  async save(
    issuer: string,
    tokens: StoredOAuthTokens,
    how: Pick<TokenRecord, 'legacy' | 'account' | 'mode'> = {},
  ): Promise<IssuedTokenRecord> {
    const previous = await this.forIssuer(issuer);
    const record: TokenRecord = {
      tokens,
      obtainedAt: this.now().toISOString(),
      serverUrl: this.serverUrl(),
      account: how.account ?? accountFromTokens(tokens) ?? previous?.account,
      ...(how.legacy ? { legacy: true } : {}),
      ...(how.mode ? { mode: how.mode } : {}),
      ...(isDpopBound(tokens) && this.dpop ? { dpopKey: await this.dpop.stored } : {}),
    };
    await this.store.saveTokens(this.serverId, issuer, record);
    this.byIssuer.set(issuer, record);
    this.latestRecord = { ...record, issuer };
    return this.latestRecord;
  }

  /**
   * The server's DPoP session: over the key its latest tokens are bound to, else over a new key that
   * is kept (sealed) with the next tokens saved. Made only when an authorization server offers DPoP.
   */
  async dpopSession(): Promise<DpopSession> {
    if (!this.dpop) {
      const kept = (await this.latest())?.dpopKey;
      if (kept) this.dpop = { stored: Promise.resolve(kept), session: openDpopKey(kept).then(dpopSession) };
      else {
        const fresh = newDpopKey();
        this.dpop = { stored: fresh.then((key) => key.stored), session: fresh.then((key) => dpopSession(key.pair)) };
      }
    }
    return this.dpop.session;
  }

  /** The DPoP session for resource requests: only while the latest tokens are DPoP-bound. */
  async boundDpopSession(): Promise<DpopSession | undefined> {
    return isDpopBound((await this.latest())?.tokens) ? this.dpopSession() : undefined;
  }

  /** The access token to present with the DPoP scheme, when the latest tokens are DPoP-bound. */
  async boundDpopToken(): Promise<string | undefined> {
    const tokens = (await this.latest())?.tokens;
    return isDpopBound(tokens) ? tokens?.access_token : undefined;
  }

  /** The connection's fetch: DPoP-bound tokens go out as `DPoP <token>` with a fresh proof per request; Bearer ones untouched. */
  fetchWithDpop(next: FetchLike, serverName: string): FetchLike {
    return dpopFetch(
      next,
      () => this.boundDpopSession(),
      () => this.boundDpopToken(),
      `Server "${serverName}"`,
    );
  }

  /** Forgets the tokens of one issuer, or all of them. */
  forget(issuer?: string): void {
    this.store.forgetTokens(this.serverId, issuer);
    if (issuer === undefined) this.byIssuer.clear();
    else this.byIssuer.set(issuer, null);
    if (issuer === undefined || this.latestRecord?.issuer === issuer) this.latestRecord = undefined;
    // Signed out: the next sign-in gets a new key (nothing is bound to the old one any more).
    if (issuer === undefined) this.dpop = undefined;
  }

  private usable<T extends TokenRecord>(record: T | null): T | undefined {
    return record && record.serverUrl === this.serverUrl() && (record.mode ?? 'browser') === this.mode() ? record : undefined;
  }
}
