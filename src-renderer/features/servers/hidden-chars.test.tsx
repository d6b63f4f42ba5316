import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeHost, renderWithHost } from '../../test-support/fake-host';
import { ServerFormDialog } from './ServerFormDialog';
import { ServersPage } from './ServersPage';
import { serverView } from './test-support/server-factories';

afterEach(cleanup);

const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });

describe('server form: hidden characters', () => {
  it('flags an invisible or direction-changing character as it is typed, showing the line with escapes', { timeout: 30_000 }, () => {
    render(<ServerFormDialog open onOpenChange={() => undefined} onSubmit={vi.fn(async () => undefined)} />);
    expect(screen.queryByRole('region', { name: 'Hidden characters' })).toBeNull();
    type('Command', 'npx');
    type('Arguments', '-y\nsafe\u202Etxt.exe');
    type('Environment', 'MODE=a\u200Bb');
    const note = within(screen.getByRole('region', { name: 'Hidden characters' }));
    expect(note.getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'Hidden characters: Arguments, line 2, holds an invisible or direction-changing character (shown as \\u{…}): on screen it can read otherwise than it runs. safe\\u{202E}txt.exe',
      'Hidden characters: Environment, line 1, holds an invisible or direction-changing character (shown as \\u{…}): on screen it can read otherwise than it runs. MODE=a\\u{200B}b',
    ]);
    expect([...note.getAllByRole('listitem')[0].querySelectorAll('mark.hidden-char')].map((mark) => mark.textContent)).toEqual([
      '\\u{202E}',
    ]);
    // Still possible to save: the flag informs, it does not forbid.
    expect((screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement).disabled).toBe(false);
    type('Arguments', '-y\nsafe.txt');
    type('Environment', 'MODE=ab');
    expect(screen.queryByRole('region', { name: 'Hidden characters' })).toBeNull();
  });
});

describe('server Overview: hidden characters and risky commands', () => {
  it('shows the command line and environment with escapes, and what the command could do', { timeout: 30_000 }, async () => {
    const server = serverView({
      name: 'gh',
      command: 'npx',
      args: ['-y', 'node', '--require', '/tmp/h.js', 'safe\u202Etxt.exe'],
      env: [{ key: 'MODE', secret: false, value: '\u2066x' }],
    });
    await renderWithHost(<ServersPage />, fakeHost({ servers: [server] }), 'servers');
    fireEvent.click(screen.getByRole('button', { name: 'gh' }));
    const line = screen.getByText((_, element) => element?.tagName === 'CODE' && /^npx -y node/.test(element.textContent ?? ''));
    expect(line.textContent).toBe('npx -y node --require /tmp/h.js safe\\u{202E}txt.exe');
    expect(line.querySelector('mark.hidden-char')?.getAttribute('title')).toBe('right-to-left override (U+202E)');
    expect(screen.getByText((_, element) => element?.tagName === 'CODE' && element.textContent === 'MODE=\\u{2066}x')).toBeTruthy();
    const risks = within(screen.getByRole('region', { name: 'Check this command' }));
    expect(risks.getAllByRole('listitem').map((item) => item.textContent?.split(':')[0])).toEqual([
      'Hidden characters',
      'Hidden characters',
      'Runs other code',
    ]);
  });
});
