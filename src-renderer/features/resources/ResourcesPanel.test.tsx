import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fakeHost, renderWithHost } from '../../test-support/fake-host';
import { markdownPart } from '../chat/Markdown';
import { ResourcesPanel } from './ResourcesPanel';
import { contentRuntime, pageOf, resources, sizeResourceLists, textRead } from './test-support/resource-factories';

afterEach(cleanup);

let restore: () => void = () => undefined;
beforeAll(() => (restore = sizeResourceLists()));
// The Markdown renderer is its own chunk, fetched after the first paint in the app: fetch it up front.
beforeAll(() => markdownPart.preload());
afterAll(() => restore());

const settle = () => act(async () => new Promise((resolve) => setTimeout(resolve, 0)));

function labHost(all = resources(10_000)) {
  return fakeHost({
    replies: {
      listResources: (input: { filter?: string; offset?: number; limit?: number }) => pageOf(all, input),
      listResourceTemplates: () => ({
        templates: [
          {
            serverId: 'srv-1',
            serverName: 'lab',
            uriTemplate: 'lab://items/{id}',
            name: 'Item by id',
            variables: [{ name: 'id', required: true }],
          },
          {
            serverId: 'srv-1',
            serverName: 'lab',
            uriTemplate: 'lab://bad/{x',
            name: 'Broken',
            variables: [],
            problem: 'The template is malformed: never closed.',
          },
        ],
        notes: [],
      }),
      readResource: (input: { uri: string }) =>
        textRead(input.uri, `# Title of ${input.uri}\n\n<script>alert(1)</script>`, 'text/markdown'),
      completeArgument: (input: { argument: { value: string } }) => ({
        values: ['0001', '0002'].filter((v) => v.startsWith(input.argument.value)),
      }),
      subscribeResource: (input: { uri: string }) => [
        { serverId: 'srv-1', uri: input.uri, since: '2026-01-01T00:00:00Z', state: 'active' },
      ],
    },
  });
}

describe('ResourcesPanel', () => {
  it('lists 10,000 resources without rendering them all, asking only for the pages on screen', async () => {
    const h = labHost();
    await renderWithHost(<ResourcesPanel serverId="srv-1" serverName="lab" runtime={contentRuntime()} />, h);
    await settle();
    expect(screen.getByRole('status').textContent).toBe('10,000 resources');
    const list = screen.getByRole('list', { name: 'Resources of lab' });
    expect(within(list).getAllByRole('listitem').length).toBeLessThan(50);
    expect(h.of('listResources')).toEqual([{ serverIds: ['srv-1'], filter: '', offset: 0, limit: 200 }]);

    fireEvent.change(screen.getByLabelText('Search resources'), { target: { value: 'item-0995' } });
    await settle();
    expect(screen.getByRole('status').textContent).toBe('1 of 10,000 resources');
    expect(within(screen.getByRole('list', { name: 'Resources of lab' })).getByRole('button', { name: 'item-0995' })).toBeTruthy();
  });

  it('reads the selected resource as safe Markdown and subscribes to it', async () => {
    const h = labHost(resources(3));
    await renderWithHost(<ResourcesPanel serverId="srv-1" serverName="lab" runtime={contentRuntime()} />, h);
    await settle();
    fireEvent.click(screen.getByRole('button', { name: 'item-0002' }));
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Read' })));
    expect(h.of('readResource')).toEqual([{ serverId: 'srv-1', uri: 'lab://items/0002', purpose: 'read' }]);
    expect(await screen.findByRole('heading', { name: 'Title of lab://items/0002' })).toBeTruthy();
    expect(document.querySelector('script')).toBeNull();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Subscribe' })));
    expect(h.of('subscribeResource')).toEqual([{ serverId: 'srv-1', uri: 'lab://items/0002' }]);
  });

  it('disables Subscribe with the reason on a server that cannot follow resources', async () => {
    const h = labHost(resources(1));
    await renderWithHost(
      <ResourcesPanel serverId="srv-1" serverName="lab" runtime={contentRuntime({ resourceSubscriptions: undefined })} />,
      h,
    );
    await settle();
    fireEvent.click(screen.getByRole('button', { name: 'item-0001' }));
    const subscribe = screen.getByRole('button', { name: 'Subscribe' }) as HTMLButtonElement;
    expect(subscribe.disabled).toBe(true);
    expect(document.getElementById(subscribe.getAttribute('aria-describedby')!)?.textContent).toContain('lab does not offer subscriptions');
  });

  it('turns a template into a form with a suggesting field, and says when a template is malformed', async () => {
    const h = labHost(resources(1));
    await renderWithHost(<ResourcesPanel serverId="srv-1" serverName="lab" runtime={contentRuntime()} />, h);
    await settle();
    fireEvent.click(screen.getByRole('button', { name: 'Item by id' }));
    const field = screen.getByRole('combobox', { name: 'id' });
    fireEvent.change(field, { target: { value: '00' } });
    await act(async () => new Promise((resolve) => setTimeout(resolve, 300)));
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['0001', '0002']);
    fireEvent.click(screen.getByRole('option', { name: '0002' }));
    expect(screen.getByTestId('expanded-uri').textContent).toBe('lab://items/0002');
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Read' })));
    expect(h.of('readResource').at(-1)).toEqual({ serverId: 'srv-1', uri: 'lab://items/0002', purpose: 'template' });

    fireEvent.click(screen.getByRole('button', { name: 'Broken' }));
    expect(screen.getByRole('alert').textContent).toContain('malformed');
    expect(screen.queryByRole('button', { name: 'Read' })).toBeNull();
  });

  it('says so when the server offers no resources or is not running', async () => {
    await renderWithHost(
      <ResourcesPanel serverId="srv-1" serverName="lab" runtime={contentRuntime({ capabilities: ['tools'] })} />,
      labHost(),
    );
    expect(screen.getByText('lab offers no resources.')).toBeTruthy();
    cleanup();
    await renderWithHost(<ResourcesPanel serverId="srv-1" serverName="lab" runtime={contentRuntime({ status: 'stopped' })} />, labHost());
    expect(screen.getByText('Start the server to see its resources.')).toBeTruthy();
  });
});
