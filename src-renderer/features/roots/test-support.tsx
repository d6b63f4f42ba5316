/** Test helpers for the roots feature: folders as the host sends them, and a scriptable fake host. */
import { act, render } from '@testing-library/react';
import type { ReactNode } from 'react';
import {
  DEFAULT_SETTINGS,
  type CallResult,
  type HostEvent,
  type HostMethodName,
  type HostMode,
  type HostSnapshot,
  type RootsSnapshot,
  type RootView,
  type ServerView,
} from '../../../src-preload/contract';
import type { HostTransport } from '../../host-client';
import { createAppStore, type Page } from '../../stores/app-store';
import { AppStoreContext } from '../../stores/use-app-store';

/** A folder as the host would send it. */
export function rootView(overrides: Partial<RootView> = {}): RootView {
  const path = overrides.path ?? `/home/ana/${overrides.name ?? 'Projects'}`;
  return {
    id: 'root-1',
    name: 'Projects',
    path,
    uri: `file://${path}`,
    available: true,
    createdAt: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}

export type Reply = (method: HostMethodName, input: unknown) => CallResult | undefined;

/** A host that records calls, answers `getSnapshot` (and whatever `reply` knows), and pushes events. */
export function fakeHost(options: { mode?: HostMode; servers?: ServerView[]; roots?: Partial<RootsSnapshot>; reply?: Reply } = {}) {
  const calls: { method: HostMethodName; input: unknown }[] = [];
  const listeners = new Set<(event: HostEvent) => void>();
  const snapshot = {
    settings: DEFAULT_SETTINGS,
    servers: options.servers ?? [],
    info: { mode: options.mode ?? 'web', version: '1' },
    roots: { roots: [], sharing: [], consents: [], audit: [], ...options.roots },
  } as unknown as HostSnapshot;
  const transport: HostTransport = {
    async call(method, input): Promise<CallResult> {
      calls.push({ method, input });
      if (method === 'getSnapshot') return { ok: true, value: snapshot };
      return options.reply?.(method, input) ?? { ok: true, value: undefined };
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  const emit = (event: HostEvent) => act(() => listeners.forEach((listener) => listener(event)));
  return { transport, calls, emit, last: () => calls.at(-1) };
}

/** Renders `ui` inside a store fed by `host`, after the snapshot arrived. */
export async function renderWithHost(host: ReturnType<typeof fakeHost>, ui: ReactNode, page: Page = 'roots') {
  const store = createAppStore(host.transport, page);
  render(<AppStoreContext.Provider value={store}>{ui}</AppStoreContext.Provider>);
  await act(async () => undefined);
  return store;
}
