/** Test helpers for the tools and consent features: a scriptable fake host, tools and outcomes as the host sends them. */
import { act, render } from '@testing-library/react';
import type { ReactNode } from 'react';
import {
  DEFAULT_SETTINGS,
  type CallResult,
  type ConsentRequestView,
  type HostEvent,
  type HostMethodName,
  type HostSnapshot,
  type StandingDecision,
  type ToolCallOutcome,
  type ToolView,
} from '../../../../src-preload/contract';
import type { HostTransport } from '../../../host-client';
import { createAppStore, type Page } from '../../../stores/app-store';
import { AppStoreContext } from '../../../stores/use-app-store';

export type Reply = (method: HostMethodName, input: unknown) => CallResult | Promise<CallResult> | undefined;

export function toolView(overrides: Partial<ToolView> = {}): ToolView {
  return {
    serverId: 'srv-1',
    serverName: 'everything',
    name: 'get-sum',
    title: 'Get Sum Tool',
    description: 'Returns the sum of two numbers',
    inputSchema: { type: 'object', properties: { a: { type: 'number', description: 'First number' }, b: { type: 'number' } }, required: ['a', 'b'] },
    annotations: { readOnlyHint: true, destructiveHint: false },
    definitionHash: 'a'.repeat(64),
    policy: 'ask',
    ...overrides,
  };
}

export function outcome(overrides: Partial<ToolCallOutcome> = {}): ToolCallOutcome {
  return {
    callId: 'call-1',
    serverId: 'srv-1',
    serverName: 'everything',
    tool: 'get-sum',
    origin: 'user',
    status: 'ok',
    blocks: [{ type: 'text', text: 'The sum of 2 and 3 is 5.' }],
    startedAt: '2026-01-01T00:00:00.000Z',
    durationMs: 12,
    resultBytes: 24,
    ...overrides,
  };
}

export function consentRequest(overrides: Partial<ConsentRequestView> = {}): ConsentRequestView {
  return {
    id: 'req-1',
    serverId: 'srv-1',
    serverName: 'everything',
    tool: 'get-sum',
    title: 'Get Sum Tool',
    description: 'Returns the sum of two numbers',
    annotations: { readOnlyHint: true },
    inputSchema: { type: 'object' },
    args: { a: 1, b: 2 },
    reason: 'ask',
    requestedAt: '2026-01-01T00:00:00.000Z',
    expiresAt: '2026-01-01T00:10:00.000Z',
    ...overrides,
  };
}

/** A host that records calls, answers `getSnapshot` (and whatever `reply` knows), and pushes events. */
export function fakeHost(options: { reply?: Reply; pending?: ConsentRequestView[]; decisions?: StandingDecision[] } = {}) {
  const calls: { method: HostMethodName; input: unknown }[] = [];
  const listeners = new Set<(event: HostEvent) => void>();
  const snapshot = {
    settings: DEFAULT_SETTINGS,
    servers: [],
    info: { mode: 'web', version: '1' },
    tools: { running: [] },
    consent: { pending: options.pending ?? [], decisions: options.decisions ?? [], settings: { timeoutMinutes: 10 } },
  } as unknown as HostSnapshot;
  const transport: HostTransport = {
    async call(method, input): Promise<CallResult> {
      calls.push({ method, input });
      if (method === 'getSnapshot') return { ok: true, value: snapshot };
      return (await options.reply?.(method, input)) ?? { ok: true, value: undefined };
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  const emit = (event: HostEvent) => act(() => listeners.forEach((listener) => listener(event)));
  return { transport, calls, emit, of: (method: HostMethodName) => calls.filter((c) => c.method === method).map((c) => c.input) };
}

/** Renders `ui` inside a store fed by `host`, after the snapshot arrived. */
export async function renderWithHost(ui: ReactNode, host: ReturnType<typeof fakeHost>, page: Page = 'servers') {
  const store = createAppStore(host.transport, page);
  const result = render(<AppStoreContext.Provider value={store}>{ui}</AppStoreContext.Provider>);
  await act(async () => undefined);
  return { ...result, store };
}
