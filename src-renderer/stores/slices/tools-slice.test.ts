import { describe, expect, it } from 'vitest';
import type { HostEvent, HostSnapshot, RunningToolCall } from '@contract';
import { toolsSlice, type ToolsState } from './tools-slice';

const chat = { conversationId: 'c1', toolUseId: 'pb_1' };
const running = (extra: Partial<RunningToolCall> = {}): RunningToolCall => ({
  callId: 'call-1',
  serverId: 's1',
  serverName: 'Everything (demo)',
  tool: 'get-sum',
  origin: 'model',
  startedAt: '2026-01-01T00:00:00.000Z',
  chat,
  ...extra,
});

describe('the tool-call stream in the store', () => {
  it('follows one call for the Tools panel (by call id) and its chat card (by chat id) from the same events', () => {
    let state: ToolsState = toolsSlice.initial;
    const apply = (event: HostEvent) => (state = { ...state, ...toolsSlice.apply!(state, event) });
    apply({ name: 'toolCallWaiting', payload: { callId: 'call-1', chat } });
    expect(state.chatToolCalls.pb_1).toEqual({ callId: 'call-1', status: 'waiting-approval' });
    expect(state.runningToolCalls).toEqual({});

    apply({ name: 'toolCallStarted', payload: running({ editedArgs: { a: 2, b: 40 } }) });
    expect(state.runningToolCalls['call-1'].chat).toEqual(chat);
    expect(state.chatToolCalls.pb_1).toEqual({ callId: 'call-1', status: 'running', editedArgs: { a: 2, b: 40 } });

    apply({ name: 'toolCallProgress', payload: { callId: 'call-1', chat, progress: 1, total: 3 } });
    const task = { id: 't1', taskId: 'task-9', status: 'working' as const };
    apply({ name: 'toolCallTask', payload: { callId: 'call-1', chat, task } });
    expect(state.runningToolCalls['call-1']).toMatchObject({ progress: { progress: 1, total: 3 }, task });
    expect(state.chatToolCalls.pb_1).toMatchObject({ status: 'running', progress: { progress: 1, total: 3 }, task });

    apply({
      name: 'toolCallFinished',
      payload: { callId: 'call-1', chat, serverId: 's1', tool: 'get-sum', origin: 'model', status: 'tool_error', durationMs: 5 },
    });
    expect(state.runningToolCalls).toEqual({});
    expect(state.toolCallsFinished).toBe(1);
    // The outcome as the card says it; what the run showed (edited arguments, task) stays, its progress goes.
    expect(state.chatToolCalls.pb_1).toEqual({ callId: 'call-1', status: 'error', editedArgs: { a: 2, b: 40 }, task });
  });

  it('leaves the chat records alone for calls of no chat, and ignores progress of calls it does not know', () => {
    const state: ToolsState = toolsSlice.initial;
    expect(toolsSlice.apply!(state, { name: 'toolCallProgress', payload: { callId: 'nope', progress: 1 } })).toBeUndefined();
    const started = toolsSlice.apply!(state, { name: 'toolCallStarted', payload: running({ chat: undefined }) });
    expect(started).not.toHaveProperty('chatToolCalls');
  });

  it('finds a reloaded chat card’s call among the host’s running calls', () => {
    const task = { id: 't1', taskId: 'task-9', status: 'working' as const };
    const snapshot = { tools: { running: [running({ task }), running({ callId: 'call-2', chat: undefined })] } } as HostSnapshot;
    expect(toolsSlice.fromSnapshot!(snapshot)).toMatchObject({
      chatToolCalls: { pb_1: { callId: 'call-1', status: 'running', task } },
    });
    expect(Object.keys(toolsSlice.fromSnapshot!(snapshot).runningToolCalls!)).toEqual(['call-1', 'call-2']);
    expect(toolsSlice.fromSnapshot!({} as HostSnapshot)).toEqual({});
  });
});
