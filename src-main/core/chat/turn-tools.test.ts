/**
 * Which tools a request carries and what a search answers, on catalogs built as servers send them:
 * 2,000 tools, a 100 KB description, one tool name on several servers, pinned tools, a query with no
 * match or none at all, and each rule that engages `automatic`.
 */
import { describe, expect, it } from 'vitest';
import { TOOL_SEARCH_TOOL_NAME, type ChatMessage, type ToolSearchMode } from '@contract';
import type { FleetTool } from '../server-fleet/fleet-tools';
import { TurnTools } from './turn-tools';

function tool(serverName: string, name: string, extra: Partial<FleetTool['tool']> = {}, pinned?: boolean): FleetTool {
  return {
    serverId: `id-${serverName}`,
    serverName,
    tool: { name, description: `Does ${name}`, inputSchema: { type: 'object', properties: { value: { type: 'string' } } }, ...extra },
    ...(pinned === undefined ? {} : { pinned }),
  };
}

/** `servers` servers of `each` tools: tool-0…tool-(each-1), one of them a real-looking `get-sum`. */
function catalog(servers: number, each: number): FleetTool[] {
  return Array.from({ length: servers }, (_, s) =>
    Array.from({ length: each }, (_, i) => tool(`server${s}`, i === 7 ? 'get-sum' : `tool-${i}`)),
  ).flat();
}

const call = (input: Record<string, unknown>) =>
  ({ type: 'tool_use', id: 'c1', name: TOOL_SEARCH_TOOL_NAME, input, serverId: '', serverName: '', toolName: '' }) as const;

function names(turn: TurnTools, history: ChatMessage[] = []): string[] {
  const plan = turn.plan(history);
  return plan.kind === 'over-limit' ? [] : plan.tools.map((t) => t.name);
}

/** The history after a search: its stored result. */
function afterSearch(turn: TurnTools, query: string): ChatMessage[] {
  const result = turn.answerSearch(call({ query }));
  return [{ id: 1, conversationId: 'c', seq: 1, role: 'user', content: [result], status: 'complete', createdAt: '' }];
}

describe('which tools a request carries', () => {
  it.each<[ToolSearchMode, number, boolean]>([
    ['automatic', 40, false],
    ['automatic', 41, true],
    ['always', 2, true],
    ['off', 100, false],
  ])('%s with %i tools engages search: %s', (mode, count, engaged) => {
    const turn = new TurnTools(catalog(1, count), mode);
    expect(names(turn)[0] === TOOL_SEARCH_TOOL_NAME).toBe(engaged);
  });

  it('automatic engages for a few tools that fill over a tenth of the context, and for more than the provider takes', () => {
    const big = Array.from({ length: 5 }, (_, i) => tool('s', `big-${i}`, { description: 'x'.repeat(9_000) }));
    expect(names(new TurnTools(big, 'automatic', { contextTokens: 8_000 }))).toEqual([TOOL_SEARCH_TOOL_NAME]);
    expect(names(new TurnTools(catalog(1, 10), 'automatic', { maxTools: 8, contextTokens: 1e6 }))).toEqual([TOOL_SEARCH_TOOL_NAME]);
  });

  it('search off with more tools than the provider takes: nothing is planned to be sent', () => {
    expect(new TurnTools(catalog(3, 50), 'off', { maxTools: 128, contextTokens: 128_000 }).plan([])).toEqual({
      kind: 'over-limit',
      count: 150,
      limit: 128,
    });
  });

  it('pinned tools go up front with the search tool; found ones join after the search, never past the limit', () => {
    const tools = [...catalog(2, 30), tool('pins', 'always-here', {}, true)];
    const turn = new TurnTools(tools, 'automatic', { maxTools: 3, contextTokens: 128_000 });
    expect(names(turn)).toEqual([TOOL_SEARCH_TOOL_NAME, 'pins__always-here']);
    const history = afterSearch(turn, 'sum');
    expect(names(turn, history)).toEqual([TOOL_SEARCH_TOOL_NAME, 'pins__always-here', 'server0__get-sum']);
  });
});

describe('search answers', () => {
  it('2,000 tools on 50 servers: the search finds get-sum on several servers, each under its own name', () => {
    const turn = new TurnTools(catalog(50, 40), 'automatic');
    const result = turn.answerSearch(call({ query: 'get sum', limit: 3 }));
    expect(result.isError).toBe(false);
    expect(result.toolSearch!.found).toHaveLength(3);
    expect(result.toolSearch!.found.every((f) => f.toolName === 'get-sum')).toBe(true);
    expect(new Set(result.toolSearch!.found.map((f) => f.name)).size).toBe(3);
    expect(result.content[0]).toMatchObject({ text: expect.stringMatching(/^Found 3 tools for "get sum"/) });
  });

  it('a 100 KB description is capped in the search answer and in the definition the model gets', () => {
    const huge = 'sum '.repeat(25_000);
    const turn = new TurnTools([...catalog(1, 45), tool('big', 'huge-tool', { description: huge })], 'automatic');
    const history = afterSearch(turn, 'huge');
    const answer = history[0].content[0];
    expect(answer.type === 'tool_result' && answer.content[0].type === 'text' && answer.content[0].text.length).toBeLessThan(1_000);
    const plan = turn.plan(history);
    const offered = plan.kind === 'search' ? plan.tools.find((t) => t.name === 'big__huge-tool') : undefined;
    expect(offered?.description?.length).toBeLessThanOrEqual(10_000);
  });

  it('no match tells the model so; a query without words asks for one', () => {
    const turn = new TurnTools(catalog(1, 50), 'automatic');
    turn.plan([]);
    const none = turn.answerSearch(call({ query: 'zzqx' }));
    expect(none).toMatchObject({ isError: false, toolSearch: { query: 'zzqx', found: [] } });
    expect(none.content[0]).toMatchObject({ text: expect.stringContaining('No tools match "zzqx"') });
    expect(turn.answerSearch(call({ query: '   ' }))).toMatchObject({ isError: true, outcome: 'error' });
    expect(turn.answerSearch(call({ query: 42 }))).toMatchObject({ isError: true });
  });

  it('the search tool is the host’s only while search is engaged', () => {
    const off = new TurnTools(catalog(1, 5), 'off');
    off.plan([]);
    expect(off.isSearchCall(call({ query: 'sum' }))).toBe(false);
    const on = new TurnTools(catalog(1, 5), 'always');
    on.plan([]);
    expect(on.isSearchCall(call({ query: 'sum' }))).toBe(true);
  });
});
