import { describe, expect, it } from 'vitest';
import { endedCall, namedCall, withArgs, type ToolCallRequest } from './tool-call';

// The router's records have one key order whoever wrote the request and however the call ended: a
// record of many shapes made every read of it polymorphic (≈ 15 µs of host CPU a call, see namedCall).
describe('the call record', () => {
  const named = { callId: 'c1', serverName: 'Everything', requestedAt: new Date(0), args: {} };
  const fromChat: ToolCallRequest = {
    args: { a: 1 },
    chat: { conversationId: 'conv', toolUseId: 'tu' },
    signal: new AbortController().signal,
    origin: 'model',
    tool: 'echo',
    serverId: 's1',
  };
  const fromToolsPanel: ToolCallRequest = { serverId: 's1', tool: 'echo', origin: 'user', args: {} };

  it('names every call in one key order, whatever order its request was written in', () => {
    const chatCall = namedCall(fromChat, named);
    const panelCall = namedCall(fromToolsPanel, named);
    expect(Object.keys(chatCall)).toEqual(Object.keys(panelCall));
    expect(Object.keys(withArgs(panelCall, { b: 2 }))).toEqual(Object.keys(panelCall));
    expect(withArgs(panelCall, panelCall.args)).toBe(panelCall);
  });

  it('ends a call that ran and a refused one in the same key order', () => {
    const ran = endedCall(namedCall(fromChat, named), {
      status: 'ok',
      result: { content: [] },
      decidedBy: 'policy',
      startedAt: new Date(0),
      durationMs: 3,
    });
    const refused = endedCall(namedCall(fromToolsPanel, named), {
      decidedBy: 'host',
      status: 'denied',
      error: { kind: 'shutdown', message: 'Patchbay is quitting; the tool was not run.' },
      result: { content: [], isError: true },
      startedAt: new Date(0),
      durationMs: 0,
    });
    expect(Object.keys(ran)).toEqual(Object.keys(refused));
    expect(refused.error.kind).toBe('shutdown');
  });
});
