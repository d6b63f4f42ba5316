import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SamplingRequestView } from '@contract';
import { SamplingDialog } from './SamplingDialog';
import { choose } from '../../test-support/choose';

afterEach(cleanup);

const request = (over: Partial<SamplingRequestView> = {}): SamplingRequestView => ({
  id: 's1',
  serverId: 'a',
  serverName: 'everything',
  toolCall: { callId: 'c1', tool: 'trigger-sampling-request' },
  messages: [{ role: 'user', content: [{ type: 'text', text: 'Hello' }] }],
  systemPrompt: 'Be kind.',
  maxTokens: 100,
  temperature: 0.7,
  models: [
    { providerId: 'anthropic', providerName: 'Anthropic', id: 'm1', displayName: 'Model One' },
    { providerId: 'p-local', providerName: 'Ollama', id: 'm2', displayName: 'Model Two' },
  ],
  model: 'm1',
  providerId: 'anthropic',
  modelReason: 'Your default model.',
  stage: 'request',
  autoApproved: false,
  requestedAt: '2026-01-01T00:00:00.000Z',
  ...over,
});

describe('the sampling dialog', () => {
  it('says "usage unknown" rather than "0 input tokens" when the provider did not report usage', () => {
    render(
      <SamplingDialog
        request={request({
          stage: 'review',
          response: { text: 'Answer', model: 'm2', stopReason: 'end_turn', usage: { inputTokens: 0, outputTokens: 0 } },
        })}
        onApprove={vi.fn()}
        onSend={vi.fn()}
        onReject={vi.fn()}
      />,
    );
    const dialog = screen.getByRole('dialog', { name: 'Sampling request' });
    expect(dialog.textContent).toContain('m2 · usage unknown');
    expect(dialog.textContent).not.toContain('0 input tokens');
  });

  it('shows who asks and within which tool call, sends edits on Approve, and Send response after review', async () => {
    const onApprove = vi.fn(async () => undefined);
    const onSend = vi.fn(async () => undefined);
    const onReject = vi.fn(async () => undefined);
    const { rerender } = render(<SamplingDialog request={request()} onApprove={onApprove} onSend={onSend} onReject={onReject} />);
    const dialog = screen.getByRole('dialog', { name: 'Sampling request' });
    expect(dialog.textContent).toContain('trigger-sampling-request');
    expect(dialog.textContent).toContain('Preselected: Your default model.');
    fireEvent.change(screen.getByRole('textbox', { name: 'Message 1 text' }), { target: { value: 'Edited' } });
    const picker = screen.getByRole('combobox', { name: 'Model' });
    // Grouped by provider, each option named by its model.
    fireEvent.keyDown(picker, { key: 'Enter' });
    expect(
      within(screen.getByRole('listbox'))
        .getAllByRole('group')
        .map((g) => [
          g.firstElementChild?.textContent,
          within(g)
            .getAllByRole('option')
            .map((o) => o.textContent),
        ]),
    ).toEqual([
      ['Anthropic', ['Model One']],
      ['Ollama', ['Model Two']],
    ]);
    await act(async () => fireEvent.click(screen.getByRole('option', { name: 'Model Two' })));
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Approve' })));
    expect(onApprove).toHaveBeenCalledWith({ edits: [{ message: 0, block: 0, text: 'Edited' }], model: 'm2', providerId: 'p-local' });

    rerender(
      <SamplingDialog
        request={request({
          stage: 'review',
          response: { text: 'Answer', model: 'm2', stopReason: 'end_turn', usage: { inputTokens: 3, outputTokens: 4 } },
        })}
        onApprove={onApprove}
        onSend={onSend}
        onReject={onReject}
      />,
    );
    expect(screen.getByText(/3 input tokens, 4 output tokens/)).toBeTruthy();
    fireEvent.change(screen.getByRole('textbox', { name: 'Response' }), { target: { value: 'Answer!' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Send response' })));
    expect(onSend).toHaveBeenCalledWith('Answer!');
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Reject' })));
    expect(onReject).toHaveBeenCalledTimes(1);
  });
});

describe('the sampling policy form in the dialog', () => {
  it('saves mode, rate limit and max-tokens cap for the server', async () => {
    const onSavePolicy = vi.fn(async () => undefined);
    const noop = async () => undefined;
    render(
      <SamplingDialog
        request={request()}
        onApprove={noop}
        onSend={noop}
        onReject={noop}
        policy={{ serverId: 'a', mode: 'ask' }}
        onSavePolicy={onSavePolicy}
      />,
    );
    fireEvent.click(screen.getByText('Sampling policy for everything'));
    await choose(screen.getByRole('combobox', { name: 'When this server asks' }), 'Block sampling');
    fireEvent.change(screen.getByRole('spinbutton', { name: 'Requests per minute (empty: no limit)' }), { target: { value: '5' } });
    fireEvent.change(screen.getByRole('spinbutton', { name: 'Max tokens per request (empty: no cap)' }), { target: { value: '200' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Save policy' })));
    expect(onSavePolicy).toHaveBeenCalledWith({ serverId: 'a', mode: 'block', ratePerMinute: 5, maxTokensCap: 200 });
    expect(screen.getByText('Saved: applies from the next request.')).toBeTruthy();
  });
});
