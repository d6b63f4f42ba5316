/**
 * The OAuth area wired for a test: a real SQLite database and key-file secret box in a temp directory,
 * one remote server row, a recording stand-in for the fleet's `ServerControl`, a movable clock and the
 * headless browser. Everything is disposed when the test finishes.
 */
import type Database from 'better-sqlite3';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport, type FetchLike } from '@modelcontextprotocol/client';
import { onTestFinished } from 'vitest';
import type { AuthView, ServerView } from '@contract';
import { KeyFileSecretBox } from '../../secrets/key-file-secret-box';
import type { RemoteAuth, RemoteServerRef, ServerControl } from '../../servers/transport/remote-auth';
import { DATABASE_FILE, openDatabase } from '../../store/database';
import { tempDir } from '../../../test-support/temp-dir';
import { createHeadlessBrowser, type HeadlessBrowser } from '../headless-browser';
import type { LookupAll } from '../oauth-hop-guard';
import { createOAuthArea, createOAuthSource, type OAuthArea } from '../oauth-area';
import type { PreregisteredClient } from '../oauth-provider';
import type { SignInSettings } from '../sign-in-settings';

export interface TestClock {
  now(): Date;
  /** Moves the clock forward (token expiry is computed with it). */
  advance(ms: number): void;
}

export interface OAuthHarness {
  area: OAuthArea;
  db: Database.Database;
  dbPath: string;
  secrets: KeyFileSecretBox;
  clock: TestClock;
  browser: HeadlessBrowser;
  ref: RemoteServerRef;
  /** Calls the fleet stand-in received. */
  control: { published: Array<AuthView | undefined>; starts: number; stops: number };
  view(): AuthView | undefined;
  /** A real MCP client over Streamable HTTP, authenticated through the area, as the fleet would build it. */
  connect(): Promise<{ client: Client; auth: RemoteAuth }>;
}

export interface OAuthHarnessOptions {
  url: string;
  name?: string;
  /** Give the area the headless browser as `openExternal` (default true); false: web mode. */
  browser?: boolean;
  callbackTimeoutMs?: number;
  clientMetadataUrl?: string;
  preregistered?: PreregisteredClient;
  /** How the server signs in (default: in the browser, with `preregistered` if given). */
  signIn?: SignInSettings;
  /** Where organisation sign-in gets the ID token (default: runs the configured command). */
  idToken?: (command: string) => Promise<string>;
  fetch?: FetchLike;
  lookup?: LookupAll;
}

export function createOAuthHarness(options: OAuthHarnessOptions): OAuthHarness {
  const dataDir = tempDir('patchbay-oauth-');
  const { db } = openDatabase(dataDir);
  let offset = 0;
  const clock: TestClock = { now: () => new Date(Date.now() + offset), advance: (ms) => (offset += ms) };
  const browser = createHeadlessBrowser();
  const signIn: SignInSettings = options.signIn ?? { mode: 'browser', ...(options.preregistered ? { client: options.preregistered } : {}) };
  const ref: RemoteServerRef = { id: 'srv-1', name: options.name ?? 'Fixture', url: options.url, signInMode: signIn.mode };
  insertServer(db, ref, clock.now().toISOString());
  const secrets = new KeyFileSecretBox(dataDir);
  const source = createOAuthSource({
    db,
    secrets,
    clock,
    openExternal: options.browser === false ? undefined : browser.open,
    callbackTimeoutMs: options.callbackTimeoutMs,
    clientMetadataUrl: () => options.clientMetadataUrl,
    signInSettings: async () => signIn,
    idToken: options.idToken,
    fetch: options.fetch,
    lookup: options.lookup,
  });
  const area = createOAuthArea({ source });
  const record = { published: [] as Array<AuthView | undefined>, starts: 0, stops: 0 };
  const control: ServerControl = {
    publish: (id) => record.published.push(area.source.view(id)),
    start: async () => void record.starts++,
    stop: async () => void record.stops++,
    describe: (id) => (id === ref.id ? ref : undefined),
    viewById: (id) => serverView(ref, area.source.view(id)),
  };
  area.source.attach(control);
  onTestFinished(async () => {
    await area.dispose();
    db.close();
  });
  return {
    area,
    db,
    dbPath: path.join(dataDir, DATABASE_FILE),
    secrets,
    clock,
    browser,
    ref,
    control: record,
    view: () => area.source.view(ref.id),
    connect: async () => {
      const auth = area.source.forServer(ref);
      const transport = new StreamableHTTPClientTransport(new URL(ref.url), {
        authProvider: auth.authProvider,
        fetch: auth.wrapFetch((url, init) => fetch(url, init)),
        onInsufficientScope: 'throw',
      });
      const client = new Client({ name: 'oauth-test', version: '1.0.0' });
      onTestFinished(() => client.close());
      await client.connect(transport);
      return { client, auth };
    },
  };
}

function insertServer(db: Database.Database, ref: RemoteServerRef, now: string): void {
  db.prepare(
    `INSERT INTO servers (id, name, name_key, transport, command, args, cwd, url, enabled, init_timeout_ms, request_timeout_ms, auto_restart, position, created_at, updated_at)
     VALUES (?, ?, ?, 'http', '', '[]', '', ?, 1, 60000, 60000, 1, 0, ?, ?)`,
  ).run(ref.id, ref.name, ref.name.toLowerCase(), ref.url, now, now);
}

/** The smallest honest `ServerView` for the signOut handler's answer. */
function serverView(ref: RemoteServerRef, auth: AuthView | undefined): ServerView {
  return {
    config: {
      id: ref.id,
      name: ref.name,
      transport: 'http',
      command: '',
      args: [],
      env: [],
      cwd: '',
      url: ref.url,
      headers: [],
      enabled: true,
      initTimeoutMs: 60_000,
      requestTimeoutMs: 60_000,
      autoRestart: true,
      oauthClientId: '',
      oauthClientSecretSet: false,
      signInMode: 'browser',
      oauthClientAuth: 'client_secret',
      oauthPrivateKeySet: false,
      oauthAssertionCommand: '',
      oauthIssuer: '',
      idpIssuer: '',
      idpTokenEndpoint: '',
      idpClientId: '',
      idpClientSecretSet: false,
      idpIdTokenCommand: '',
      createdAt: new Date(0).toISOString(),
    },
    runtime: { status: 'stopped', since: new Date(0).toISOString(), ...(auth ? { auth } : {}) },
  };
}
