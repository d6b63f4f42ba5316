import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { HostCallError } from '@contract';
import { fakeHost, renderWithHost } from '../../test-support/fake-host';
import { contentRuntime } from '../resources/test-support/resource-factories';
import { PromptsPanel } from './PromptsPanel';

afterEach(cleanup);

function host() {
  return fakeHost({
    replies: {
      listPrompts: () => ({
        prompts: [
          {
            serverId: 'srv-1',
            serverName: 'lab',
            name: 'with-resource',
            description: 'Text, an embedded resource, a link',
            arguments: [
              { name: 'topic', description: 'What about', required: true },
              { name: 'depth', required: false },
            ],
          },
        ],
        notes: [
          'Server "lab" sent a page cursor it had already sent (a pagination loop); the prompts list stops at the 1 received before it.',
        ],
      }),
      completeArgument: () => ({ values: [] }),
      getPrompt: (input: { arguments: Record<string, string> }) => {
        if (!input.arguments.topic) throw new HostCallError('invalid_input', 'Fill in topic.');
        return {
          useId: 'u1',
          serverId: 'srv-1',
          serverName: 'lab',
          name: 'with-resource',
          arguments: input.arguments,
          messages: [
            { role: 'user', content: { type: 'text', text: `Read about ${input.arguments.topic}:` } },
            { role: 'user', content: { type: 'resource', uri: 'lab://docs/data.json', mimeType: 'application/json', text: '{"ok":true}' } },
            { role: 'assistant', content: { type: 'resource_link', uri: 'lab://docs/readme.md', name: 'readme.md' } },
          ],
          chars: 30,
        };
      },
    },
  });
}

describe('PromptsPanel', () => {
  it('shows each prompt by its name with its arguments, checks required ones, and shows the messages before anything is used', async () => {
    const h = host();
    await renderWithHost(<PromptsPanel serverId="srv-1" serverName="lab" runtime={contentRuntime()} />, h);
    expect(screen.getByRole('alert').textContent).toContain('pagination loop');
    fireEvent.click(screen.getByRole('button', { name: 'with-resource' }));
    expect(screen.getByText('Text, an embedded resource, a link')).toBeTruthy();
    const topic = screen.getByRole('combobox', { name: 'topic' });
    expect(topic.getAttribute('aria-required')).toBe('true');
    expect(screen.getByRole('combobox', { name: 'depth' }).getAttribute('aria-required')).toBeNull();

    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Get prompt' })));
    expect(screen.getByText('topic is required')).toBeTruthy();
    expect(h.of('getPrompt')).toEqual([]);

    fireEvent.change(topic, { target: { value: 'stars' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Get prompt' })));
    expect(h.of('getPrompt')).toEqual([{ serverId: 'srv-1', name: 'with-resource', arguments: { topic: 'stars' }, purpose: 'preview' }]);
    const messages = within(screen.getByRole('list', { name: 'Prompt messages' }));
    expect(messages.getAllByRole('listitem').map((m) => m.getAttribute('data-role'))).toEqual(['user', 'user', 'assistant']);
    expect(messages.getByText('Read about stars:')).toBeTruthy();
    expect(messages.getByText('{"ok":true}')).toBeTruthy();
    expect(messages.getByRole('button', { name: 'Open readme.md' })).toBeTruthy();
  });

  it('says so when the server offers no prompts', async () => {
    await renderWithHost(<PromptsPanel serverId="srv-1" serverName="lab" runtime={contentRuntime({ capabilities: ['tools'] })} />, host());
    expect(screen.getByText('lab offers no prompts.')).toBeTruthy();
  });
});
