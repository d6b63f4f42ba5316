import { describe, expect, it } from 'vitest';
import type { ChatBlock, ChatMessage } from '@contract';
import { toLlmMessages } from './api-history';

let seq = 0;
function msg(role: 'user' | 'assistant', content: ChatBlock[], status: ChatMessage['status'] = 'complete'): ChatMessage {
  seq += 1;
  return { id: seq, conversationId: 'c', seq, role, content, status, createdAt: '' };
}
const text = (t: string): ChatBlock => ({ type: 'text', text: t });
const use = (id: string): ChatBlock => ({
  type: 'tool_use',
  id,
  name: 'srv__t',
  input: { q: id },
  serverId: 's',
  serverName: 'srv',
  toolName: 't',
});
const result = (id: string, t = 'ok'): ChatBlock => ({
  type: 'tool_result',
  toolUseId: id,
  content: [{ type: 'text', text: t }],
  isError: false,
  outcome: 'done',
});

describe('stored history → request messages', () => {
  it('pairs calls by Patchbay’s ids and sends each with the provider’s own, even when the provider reused it', () => {
    const withApiId = (id: string): ChatBlock => ({ ...(use(id) as Extract<ChatBlock, { type: 'tool_use' }>), apiId: 'call_1' });
    const out = toLlmMessages(
      [
        msg('user', [text('q')]),
        msg('assistant', [withApiId('pb_1')]),
        msg('user', [result('pb_1', 'first')]),
        msg('assistant', [withApiId('pb_2')]),
        msg('user', [result('pb_2', 'second')]),
      ],
      { offerTools: true },
    );
    expect(out.slice(1).map((m) => m.content[0])).toEqual([
      { type: 'tool_use', id: 'call_1', name: 'srv__t', input: { q: 'pb_1' } },
      { type: 'tool_result', toolUseId: 'call_1', content: [{ type: 'text', text: 'first' }], isError: false },
      { type: 'tool_use', id: 'call_1', name: 'srv__t', input: { q: 'pb_2' } },
      { type: 'tool_result', toolUseId: 'call_1', content: [{ type: 'text', text: 'second' }], isError: false },
    ]);
  });

  it('passes a plain conversation through', () => {
    expect(
      toLlmMessages([msg('user', [text('hi')]), msg('assistant', [text('hello')]), msg('user', [text('bye')])], { offerTools: true }),
    ).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'hi' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'hello' }] },
      { role: 'user', content: [{ type: 'text', text: 'bye' }] },
    ]);
  });

  it('leaves out an interrupted answer a retry replaced, and one that ends the history', () => {
    const history = [msg('user', [text('q')]), msg('assistant', [text('half')], 'interrupted'), msg('assistant', [text('whole')])];
    expect(toLlmMessages(history, { offerTools: false }).map((m) => m.content)).toEqual([[{ type: 'text', text: 'q' }]]);
    const retried = toLlmMessages([...history, msg('user', [text('more')])], { offerTools: false });
    expect(retried.map((m) => [m.role, m.content])).toEqual([
      ['user', [{ type: 'text', text: 'q' }]],
      ['assistant', [{ type: 'text', text: 'whole' }]],
      ['user', [{ type: 'text', text: 'more' }]],
    ]);
    // An interrupted answer the user replied to stays: the model should know what it said.
    const stopped = toLlmMessages(
      [msg('user', [text('q')]), msg('assistant', [text('half')], 'interrupted'), msg('user', [text('go on')])],
      { offerTools: false },
    );
    expect(stopped.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
  });

  it('gives every call a result (missing ones say they did not run) and drops results without a call', () => {
    const out = toLlmMessages(
      [
        msg('user', [text('q')]),
        msg('assistant', [use('a'), use('b')]),
        msg('user', [result('b'), result('zzz')]),
        msg('user', [text('next')]),
      ],
      { offerTools: true },
    );
    expect(out).toHaveLength(3);
    expect(out[2]).toEqual({
      role: 'user',
      content: [
        {
          type: 'tool_result',
          toolUseId: 'a',
          content: [{ type: 'text', text: 'Not run: the turn ended before this call ran.' }],
          isError: true,
        },
        { type: 'tool_result', toolUseId: 'b', content: [{ type: 'text', text: 'ok' }], isError: false },
        { type: 'text', text: 'next' },
      ],
    });
  });

  it('skips empty text and empty messages, and never ends with an answer', () => {
    const out = toLlmMessages([msg('user', [text('q'), text('  ')]), msg('assistant', [text('')]), msg('assistant', [text('a')])], {
      offerTools: false,
    });
    expect(out).toEqual([{ role: 'user', content: [{ type: 'text', text: 'q' }] }]);
  });

  it('turns tool blocks into text when no tools are offered (the API refuses tool blocks without tools)', () => {
    const out = toLlmMessages(
      [msg('user', [text('q')]), msg('assistant', [use('a')]), msg('user', [result('a', '42')]), msg('user', [text('thanks')])],
      {
        offerTools: false,
      },
    );
    expect(out[1].content).toEqual([{ type: 'text', text: '[Called the tool srv__t with {"q":"a"}]' }]);
    expect(out[2].content).toEqual([
      { type: 'text', text: '[Result of srv__t: 42]' },
      { type: 'text', text: 'thanks' },
    ]);
  });

  it('starts at a user message when the history was cut to its newest part', () => {
    const out = toLlmMessages(
      [msg('assistant', [use('a')]), msg('user', [result('a')]), msg('assistant', [text('x')]), msg('user', [text('y')])],
      { offerTools: true },
    );
    expect(out).toEqual([{ role: 'user', content: [{ type: 'text', text: 'y' }] }]);
  });
});
