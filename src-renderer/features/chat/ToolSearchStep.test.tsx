import { cleanup, fireEvent, render as renderInStore, screen, type RenderOptions } from '@testing-library/react';
import type { ReactElement, ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TOOL_SEARCH_TOOL_NAME } from '@contract';
import { createAppStore } from '../../stores/app-store';
import { AppStoreContext } from '../../stores/use-app-store';
import { fakeHost } from '../../test-support/fake-host';
import type { ToolResultBlock, ToolUseBlock } from '@contract';
import { TurnErrorBanner } from './ChatNotices';
import { ToolSearchStep } from './ToolSearchStep';

afterEach(cleanup);

/** Renders inside a store fed by an empty fake host (the step answers a timeline's "Show the search"). */
function render(ui: ReactElement, options?: RenderOptions) {
  const store = createAppStore(fakeHost().transport, 'chat');
  const wrapper = ({ children }: { children: ReactNode }) => <AppStoreContext.Provider value={store}>{children}</AppStoreContext.Provider>;
  return renderInStore(ui, { ...options, wrapper });
}

const call: ToolUseBlock = {
  type: 'tool_use',
  id: 'tu1',
  name: TOOL_SEARCH_TOOL_NAME,
  input: { query: 'sum' },
  serverId: '',
  serverName: '',
  toolName: '',
};
const answered = (found: { serverId: string; toolName: string; name: string }[]): ToolResultBlock => ({
  type: 'tool_result',
  toolUseId: 'tu1',
  content: [{ type: 'text', text: 'Found…' }],
  isError: false,
  outcome: 'done',
  toolSearch: { query: 'sum', found },
});

describe('ToolSearchStep', () => {
  it('says what was searched and how many were found, opening to the tools', () => {
    const found = [
      { serverId: 'a', toolName: 'get-sum', name: 'everything-1__get-sum', serverName: 'everything-1' },
      { serverId: 'b', toolName: 'calculate_total', name: 'hostile__calculate_total', serverName: 'hostile', flagged: 'stuffed' },
      // Stored before servers were named: the API name stands in.
      { serverId: 'c', toolName: 'get-sum', name: 'everything-2__get-sum' },
    ];
    render(<ToolSearchStep call={call} result={answered(found)} />);
    fireEvent.click(screen.getByText("Searched tools: 'sum' → 3 found"));
    expect(screen.getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'get-sum on everything-1',
      'calculate_total on hostile — flagged: stuffed',
      'get-sum on everything-2__get-sum',
    ]);
  });

  it('while the host answers, and when nothing matched', () => {
    const { rerender } = render(<ToolSearchStep call={call} />);
    expect(screen.getByText("Searching tools: 'sum'…")).toBeTruthy();
    rerender(<ToolSearchStep call={call} result={answered([])} />);
    expect(screen.getByText("Searched tools: 'sum' → none found")).toBeTruthy();
  });
});

describe('TurnErrorBanner for too many tools', () => {
  it('offers to turn on tool search, and Retry', () => {
    const onTurnOnToolSearch = vi.fn();
    render(
      <TurnErrorBanner
        error={{ kind: 'too-many-tools', message: 'Not sent: this conversation offers 133 tools…', retryable: true, at: '' }}
        onRetry={() => {}}
        onContinueWithoutTools={() => {}}
        onTurnOnToolSearch={onTurnOnToolSearch}
        onChooseToolSet={() => {}}
        onOpenSettings={() => {}}
        retrying={false}
      />,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Turn on tool search' }));
    expect(onTurnOnToolSearch).toHaveBeenCalledOnce();
    expect(screen.getByRole('button', { name: 'Retry' })).toBeTruthy();
  });
});
