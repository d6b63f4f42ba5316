/** Test helpers for the tools and consent features: tools, outcomes and consent requests as the host sends them. */
import type { ConsentRequestView, QuestionOf, ToolCallOutcome, ToolView } from '@contract';

export function toolView(overrides: Partial<ToolView> = {}): ToolView {
  return {
    serverId: 'srv-1',
    serverName: 'everything',
    name: 'get-sum',
    title: 'Get Sum Tool',
    description: 'Returns the sum of two numbers',
    inputSchema: {
      type: 'object',
      properties: { a: { type: 'number', description: 'First number' }, b: { type: 'number' } },
      required: ['a', 'b'],
    },
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

/** A pending tool-consent question, as the queue sends it. */
export function consentRequest(overrides: Partial<ConsentRequestView> = {}): QuestionOf<'tool'> {
  return {
    kind: 'tool',
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
