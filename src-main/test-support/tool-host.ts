/**
 * Host-level helpers for the suites that drive servers through the whole host (tools, consent, audit,
 * sampling, remote servers): `startTestHost` plus waits on events and servers rather than sleeps.
 */
import path from 'node:path';
import { expect } from 'vitest';
import type { HostApi, HostEvent, HostEventName, HostEvents, QuestionKind, QuestionOf, QuestionSettled, ServerInput } from '@contract';
import type { Host } from '../core/host';
import { FIXTURES_DIR, REPO_ROOT } from './fixtures';
import { waitFor } from '../core/servers/wait';
import { tempDir } from './temp-dir';
import { startTestHost } from './test-host';

export interface TestHost {
  host: Host;
  api: HostApi;
  dataDir: string;
  events: HostEvent[];
  /** Resolves with the first event (from now on, or already seen after `since`) matching. */
  next<K extends HostEventName>(name: K, match?: (payload: HostEvents[K]) => boolean, since?: number): Promise<HostEvents[K]>;
  count<K extends HostEventName>(name: K, match?: (payload: HostEvents[K]) => boolean): number;
  /** `next('questionAsked')` for a question of one kind. */
  asked<K extends QuestionKind>(kind: K, match?: (question: QuestionOf<K>) => boolean, since?: number): Promise<QuestionOf<K>>;
  /** `next('questionUpdated')` for a question of one kind. */
  updated<K extends QuestionKind>(kind: K, match?: (question: QuestionOf<K>) => boolean, since?: number): Promise<QuestionOf<K>>;
  /** `next('questionSettled')` for a question of one kind. */
  settled<K extends QuestionKind>(
    kind: K,
    match?: (settled: Extract<QuestionSettled, { kind: K }>) => boolean,
    since?: number,
  ): Promise<Extract<QuestionSettled, { kind: K }>>;
  /** How many questions of one kind were asked (matching). */
  countAsked<K extends QuestionKind>(kind: K, match?: (question: QuestionOf<K>) => boolean): number;
  /** Adds a server and waits until it is ready; returns its id. */
  addServer(input: ServerInput): Promise<string>;
  fixture(file: string, extra?: Partial<ServerInput>): Promise<string>;
  everything(): Promise<string>;
}

/** A test host (see `startTestHost`) without idle pings, with the helpers above. Disposed after the test. */
export function startHost(dataDir = tempDir()): TestHost {
  const { host, events, api } = startTestHost({ dataDir, connectionDefaults: { timeouts: { pingIntervalMs: 0 } } });
  const matching = <K extends HostEventName>(name: K, match?: (payload: HostEvents[K]) => boolean, since = 0) =>
    events
      .slice(since)
      .filter((e): e is Extract<HostEvent, { name: K }> => e.name === name && (!match || match(e.payload as HostEvents[K])));

  const addServer = async (input: ServerInput) => {
    const added = await api.addServer(input);
    const id = added.config.id;
    await waitFor(async () => (await api.getSnapshot()).servers.find((s) => s.config.id === id)?.runtime.status === 'ready', {
      timeoutMs: 30_000,
      what: `${input.name} to be ready`,
    }).catch(async () =>
      expect.fail(
        `${input.name} did not become ready: ${JSON.stringify((await api.getSnapshot()).servers.find((s) => s.config.id === id)?.runtime)}`,
      ),
    );
    return id;
  };

  const next = async <K extends HostEventName>(name: K, match?: (payload: HostEvents[K]) => boolean, since = events.length) => {
    const [found] = await waitFor(
      () => {
        const hits = matching(name, match, since);
        return hits.length > 0 ? hits : undefined;
      },
      { timeoutMs: 20_000, what: `event ${name}` },
    );
    return found.payload as HostEvents[K];
  };
  /** Matches a question (or its settlement) of one kind. */
  const ofKind =
    <T extends { kind: QuestionKind }>(kind: QuestionKind, match?: (payload: never) => boolean) =>
    (payload: T) =>
      payload.kind === kind && (!match || match(payload as never));

  return {
    host,
    api,
    dataDir,
    events,
    next,
    count: (name, match) => matching(name, match).length,
    asked: async (kind, match, since) => (await next('questionAsked', ofKind(kind, match), since)) as never,
    updated: async (kind, match, since) => (await next('questionUpdated', ofKind(kind, match), since)) as never,
    settled: async (kind, match, since) => (await next('questionSettled', ofKind(kind, match), since)) as never,
    countAsked: (kind, match) => matching('questionAsked', ofKind(kind, match)).length,
    addServer,
    fixture: (file, extra = {}) =>
      addServer({ name: file.replace(/\.mjs$/, ''), command: process.execPath, args: [path.join(FIXTURES_DIR, file)], ...extra }),
    everything: () =>
      addServer({
        name: 'everything',
        command: process.execPath,
        args: [path.join(REPO_ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js'), 'stdio'],
      }),
  };
}
