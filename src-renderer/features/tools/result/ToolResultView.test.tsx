import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { outcome } from '../test-support/tool-factories';
import { ToolResultView } from './ToolResultView';

afterEach(cleanup);

describe('ToolResultView', () => {
  it('renders every kind of content for people, and the structured content as a collapsible JSON view', () => {
    const load = vi.fn();
    render(
      <ToolResultView
        load={load}
        outcome={outcome({
          blocks: [
            { type: 'text', text: 'Here you go' },
            { type: 'image', mimeType: 'image/png', data: 'iVBORw0KGgo=', bytes: 8 },
            { type: 'audio', mimeType: 'audio/wav', data: 'UklGRg==', bytes: 4 },
            { type: 'resource_link', uri: 'file:///tmp/r.txt', name: 'r.txt', description: 'The report' },
            { type: 'resource', uri: 'memo://1', mimeType: 'text/plain', text: 'An embedded memo' },
          ],
          structured: { json: '{\n  "t": 1\n}', validated: true },
        })}
      />,
    );
    const result = screen.getByRole('region', { name: 'Result: get-sum on everything' });
    expect(within(result).getByText('Here you go')).toBeTruthy();
    const image = within(result).getByRole('img', { name: 'Image from get-sum on everything (image/png, 8\u00a0B)' }) as HTMLImageElement;
    expect(image.src).toBe('data:image/png;base64,iVBORw0KGgo=');
    expect((result.querySelector('audio') as HTMLAudioElement).src).toBe('data:audio/wav;base64,UklGRg==');
    expect(within(result).getByText('file:///tmp/r.txt')).toBeTruthy();
    expect(within(result).getByText('The report')).toBeTruthy();
    expect(within(result).getByText('An embedded memo')).toBeTruthy();
    const structured = result.querySelector('details.result-structured') as HTMLDetailsElement;
    expect(structured.open).toBe(false);
    expect(within(structured).getByText(/matches the tool’s output schema/)).toBeTruthy();
  });

  it('shows the first part of a large text and fetches the rest on demand', async () => {
    const load = vi.fn(async (_part: number | 'structured', offset: number) => ({ text: 'MORE', offset, total: 14 }));
    render(
      <ToolResultView
        load={load}
        outcome={outcome({ blocks: [{ type: 'text', text: '0123456789', truncated: { shown: 10, total: 14 } }], resultBytes: 14 })}
      />,
    );
    expect(screen.getByText('Showing 10 B of 14 B.')).toBeTruthy();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Show more' })));
    expect(load).toHaveBeenCalledWith(0, 10);
    expect(screen.getByText('0123456789MORE')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Show more' })).toBeNull();
  });

  it('tells a tool error apart from a failed call, each naming the server and the tool', () => {
    render(
      <ToolResultView
        load={vi.fn()}
        outcome={outcome({ status: 'tool_error', blocks: [{ type: 'text', text: 'backend unreachable' }] })}
      />,
    );
    const toolError = screen.getByRole('region', { name: 'The tool reported an error: get-sum on everything' });
    expect(within(toolError).getByText('backend unreachable')).toBeTruthy();
    expect(within(toolError).queryByRole('alert')).toBeNull();
    cleanup();
    render(
      <ToolResultView
        load={vi.fn()}
        outcome={outcome({
          status: 'protocol_error',
          blocks: [],
          error: { kind: 'timeout', message: 'Server "everything" did not answer tools/call "get-sum" within 60 s' },
        })}
      />,
    );
    const failed = screen.getByRole('region', { name: 'The call failed: get-sum on everything' });
    expect(within(failed).getByRole('alert').textContent).toContain('did not answer');
  });
});
