/**
 * The one fake host for the renderer's component tests: a transport at the process boundary that
 * answers `getSnapshot` with a full snapshot (empty areas unless the test gives parts of them),
 * answers other calls from `replies` / `reply`, records every call, and pushes events when told.
 * The store and the components under test are the real ones.
 */
import { act, render } from '@testing-library/react';
import type { ReactNode } from 'react';
import {
  DEFAULT_LOG_SETTINGS,
  DEFAULT_SETTINGS,
  type CallResult,
  type ContextMeasure,
  type HostEvent,
  type HostInfo,
  type HostMethodName,
  type HostSnapshot,
  type ServerView,
  type SkillList,
  type TelemetryView,
} from '@contract';
import type { HostTransport } from '../host-client';
import type { Route } from '../routing/routes';
import { createAppStore, type Page } from '../stores/app-store';
import { AppStoreContext } from '../stores/use-app-store';

/** Answers a call with a whole result (or leaves it to the defaults by returning undefined). */
export type Reply = (method: HostMethodName, input: unknown) => CallResult | Promise<CallResult> | undefined;
/** Answers a call with its value; a thrown error becomes an `internal` error result. */
export type ValueReply = (input: never) => unknown;

/** Parts of the snapshot a test cares about: each area's fields are merged over its empty state. */
export interface FakeHostOptions {
  info?: Partial<HostInfo>;
  servers?: ServerView[];
  settings?: Partial<HostSnapshot['settings']>;
  roots?: Partial<HostSnapshot['roots']>;
  chat?: Partial<HostSnapshot['chat']>;
  tools?: Partial<HostSnapshot['tools']>;
  consent?: Partial<HostSnapshot['consent']>;
  logs?: Partial<HostSnapshot['logs']>;
  sampling?: Partial<HostSnapshot['sampling']>;
  app?: Partial<HostSnapshot['app']>;
  providers?: Partial<HostSnapshot['providers']>;
  resources?: Partial<HostSnapshot['resources']>;
  tasks?: Partial<HostSnapshot['tasks']>;
  toolOffers?: Partial<HostSnapshot['toolOffers']>;
  rules?: Partial<HostSnapshot['rules']>;
  /** Pending questions, oldest first. */
  questions?: HostSnapshot['questions'];
  /** Value answers per method; tests may add to it after the host was made. */
  replies?: Partial<Record<HostMethodName, ValueReply>>;
  /** Whole-result answers, asked after `replies`. */
  reply?: Reply;
}

/** A full snapshot: every area empty, with the given parts merged in. */
export function fakeSnapshot(options: FakeHostOptions = {}): HostSnapshot {
  return {
    info: {
      appName: 'Patchbay',
      version: '1',
      mode: 'web',
      dataDir: '/data',
      platform: 'linux-x64',
      runtime: 'Node 20',
      startedAt: '2026-01-01T00:00:00.000Z',
      logFile: '/data/logs/patchbay.log',
      database: { path: '/data/patchbay.db', state: 'ok', schemaVersion: 1, journalMode: 'wal', synchronous: 'FULL' },
      ...options.info,
    },
    settings: { ...DEFAULT_SETTINGS, ...options.settings },
    servers: options.servers ?? [],
    roots: { roots: [], sharing: [], audit: [], ...options.roots },
    chat: {
      conversations: [],
      moreConversations: false,
      llm: { apiKey: { state: 'not-set', storage: 'Encrypted in the data directory.' } },
      ...options.chat,
    },
    tools: { running: [], ...options.tools },
    consent: { decisions: [], settings: { timeoutMinutes: 10 }, ...options.consent },
    logs: { settings: DEFAULT_LOG_SETTINGS, levels: {}, ...options.logs },
    sampling: { policies: [], ...options.sampling },
    questions: options.questions ?? [],
    app: { openRequests: [], update: { status: 'unsupported', reason: 'web mode' }, windowRecovery: null, ...options.app },
    providers: { providers: [], ...options.providers },
    resources: { subscriptions: [], ...options.resources },
    tasks: { recent: [], ...options.tasks },
    toolOffers: { tools: [], offerNew: {}, sets: [], ...options.toolOffers },
    rules: { text: '', rules: [], warnings: [], ...options.rules },
  };
}

/**
 * What the queries a page makes on its own answer when a test gives no reply: what a new host would
 * (an empty meter, export off), so a test about something else need not stub them.
 */
const EMPTY_ANSWERS: Partial<Record<HostMethodName, () => unknown>> = {
  measureContext: (): ContextMeasure => ({ total: 0, tools: 0, toolCount: 0, system: 0, attachments: 0, history: 0, servers: [] }),
  getTelemetry: (): TelemetryView => ({
    ...{ enabled: false, endpoint: '', protocol: 'http/protobuf', headers: [], propagate: true, exportContent: false },
    ...{ fromEnvironment: false, exporting: false, dropped: 0, exported: 0 },
  }),
  listSkills: (): SkillList => ({ skills: [], local: { folder: '', state: 'none' }, servers: [] }),
};

export function fakeHost(options: FakeHostOptions = {}) {
  const calls: { method: HostMethodName; input: unknown }[] = [];
  const listeners = new Set<(event: HostEvent) => void>();
  const replies: Partial<Record<HostMethodName, ValueReply>> = { ...options.replies };
  const snapshot = fakeSnapshot(options);
  const transport: HostTransport = {
    async call(method, input): Promise<CallResult> {
      calls.push({ method, input });
      const byValue = replies[method];
      if (byValue) {
        try {
          return { ok: true, value: await byValue(input as never) };
        } catch (error) {
          return { ok: false, error: { code: 'internal', message: (error as Error).message } };
        }
      }
      const whole = await options.reply?.(method, input);
      if (whole) return whole;
      return { ok: true, value: method === 'getSnapshot' ? snapshot : EMPTY_ANSWERS[method]?.() };
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  return {
    transport,
    snapshot,
    calls,
    replies,
    /** The inputs of every call of `method`, in order. */
    of: (method: HostMethodName) => calls.filter((c) => c.method === method).map((c) => c.input),
    last: () => calls.at(-1),
    /**
     * Pushes an event to every subscriber inside a synchronous `act`, so React has rendered when it
     * returns. Returns nothing: a caller may wrap it in its own `act` and stay synchronous.
     */
    emit: (event: HostEvent): void => {
      act(() => listeners.forEach((listener) => listener(event)));
    },
  };
}

export type FakeHost = ReturnType<typeof fakeHost>;

/** Renders `ui` inside a store fed by `host` (at a page or a route), after the snapshot (and what it triggers) arrived. */
export async function renderWithHost(ui: ReactNode, host: FakeHost, page: Page | Route = 'servers') {
  const store = createAppStore(host.transport, page);
  const result = render(<AppStoreContext.Provider value={store}>{ui}</AppStoreContext.Provider>);
  await act(async () => undefined);
  await act(async () => undefined);
  return { ...result, store };
}
