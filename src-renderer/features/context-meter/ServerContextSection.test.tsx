import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ContextMeasure, ServerContextView } from '@contract';
import { fakeHost, renderWithHost } from '../../test-support/fake-host';
import { serverView } from '../servers/test-support/server-factories';
import { ServerContextSection } from './ServerContextSection';

afterEach(cleanup);

const context: ServerContextView = { serverId: 's1', sendInstructions: true, instructionsLimit: 8_000, tools: 13, toolTokens: 1_900 };
const measure = (heldBack?: ContextMeasure['heldBack']): ContextMeasure => ({
  total: 500,
  tools: 132,
  toolCount: 1,
  system: 0,
  attachments: 0,
  history: 0,
  servers: [],
  ...(heldBack ? { heldBack } : {}),
});

async function renderSection(m: ContextMeasure) {
  const server = serverView({ id: 's1', name: 'everything' }, { status: 'ready' });
  const host = fakeHost({ servers: [server], replies: { getServerContext: () => context, measureContext: () => m } });
  await renderWithHost(<ServerContextSection serverId="s1" serverName="everything" runtime={server.runtime} />, host);
}

describe("a server's Model context", () => {
  it('does not claim its tools go in every request while tool search keeps them back', async () => {
    await renderSection(
      measure({ tools: 13, tokens: 1_900, servers: [{ serverId: 's1', serverName: 'everything', tools: 13, tokens: 1_900 }] }),
    );
    const line = await screen.findByText(/^Tools: 13/);
    expect(line.textContent).toBe(
      'Tools: 13, ≈ 1.9k tokens if all were sent. Tool search keeps back 13 of them: a new conversation’s request carries none until the model finds them with a search.',
    );
    expect(line.textContent).not.toContain('in every chat request');
  });

  it('says they go in every request that offers them when search sends them all', async () => {
    await renderSection(measure());
    expect((await screen.findByText(/^Tools: 13/)).textContent).toBe(
      'Tools: 13, ≈ 1.9k tokens (in every chat request that offers everything’s tools)',
    );
  });
});
