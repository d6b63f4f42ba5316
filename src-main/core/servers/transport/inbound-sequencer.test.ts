import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { InboundSequencer } from './inbound-sequencer';
import { waitFor } from '../wait';

const progress = (n: number): JSONRPCMessage => ({
  jsonrpc: '2.0',
  method: 'notifications/progress',
  params: { progressToken: 1, progress: n },
});
const response = (id: number): JSONRPCMessage => ({ jsonrpc: '2.0', id, result: {} });

describe('InboundSequencer', () => {
  it('lets every microtask scheduled by a notification run before the next message, keeping order', async () => {
    const log: string[] = [];
    const sequencer = new InboundSequencer((message) => {
      const label = 'method' in message ? `n${(message.params as { progress: number }).progress}` : `r${(message as { id: number }).id}`;
      log.push(`deliver ${label}`);
      // What the SDK does with a notification: dispatch it a microtask (or a few) later.
      if ('method' in message)
        void Promise.resolve()
          .then(() => Promise.resolve())
          .then(() => log.push(`handled ${label}`));
    });
    sequencer.push(response(1));
    sequencer.push(progress(1));
    sequencer.push(progress(2));
    sequencer.push(response(2));
    expect(log).toEqual(['deliver r1', 'deliver n1']);
    expect(sequencer.pending).toBe(2);
    await waitFor(() => sequencer.pending === 0 && log.length === 6, { what: 'the held messages' });
    expect(log).toEqual(['deliver r1', 'deliver n1', 'handled n1', 'deliver n2', 'handled n2', 'deliver r2']);
  });
});
