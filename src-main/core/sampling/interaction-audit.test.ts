/**
 * The sampling/elicitation audit trail read in pages through the contract: real host, real
 * server-everything asking, entries newest first, `before`/`nextBefore` walking back without gaps or
 * repeats, and the input validated like every other method.
 */
import { describe, expect, it } from 'vitest';
import type { InteractionAuditEntry } from '@contract';
import { startHost, type TestHost } from '../../test-support/tool-host';
import { answerElicitation } from '../../test-support/answers';

/** A blocked sampling request: audited by the policy at once, no model and no dialog needed. */
async function blockedSampling(t: TestHost, serverId: string) {
  expect(JSON.stringify(await t.api.runTool({ serverId, tool: 'trigger-sampling-request', args: { prompt: 'page me' } }))).toContain(
    'Sampling is blocked',
  );
}

/** An elicitation the user declines. */
async function declinedElicitation(t: TestHost, serverId: string) {
  const run = t.api.runTool({ serverId, tool: 'trigger-elicitation-request', args: {} });
  const asked = await t.asked('elicitation');
  await answerElicitation(t.api, { id: asked.id, action: 'decline' });
  expect(JSON.stringify(await run)).toContain('declined');
}

describe('listInteractionAudit paging', () => {
  it('pages newest first with before/nextBefore, without gaps or repeats', async () => {
    const t = startHost();
    const id = await t.everything();
    await t.api.setSamplingPolicy({ serverId: id, mode: 'block' });
    for (let i = 0; i < 3; i++) await blockedSampling(t, id);
    await declinedElicitation(t, id);

    const all = await t.api.listInteractionAudit({});
    expect(all.nextBefore).toBeUndefined();
    expect(all.entries.map((e) => [e.kind, e.outcome, e.decidedBy])).toEqual([
      ['elicitation', 'declined', 'user'],
      ['sampling', 'blocked', 'policy'],
      ['sampling', 'blocked', 'policy'],
      ['sampling', 'blocked', 'policy'],
    ]);
    const seqs = all.entries.map((e) => e.seq);
    expect([...seqs].sort((a, b) => b - a)).toEqual(seqs);
    expect(all.entries[0]).toMatchObject({ serverName: 'everything', toolCall: 'trigger-elicitation-request' });
    expect(JSON.parse(all.entries[0].request)).toMatchObject({ message: expect.any(String) });
    expect(all.entries[1].note).toContain('Sampling is blocked');
    // Every audited request was announced, the policy-blocked ones too: the Settings list refreshes on it.
    expect(t.count('interactionSettled')).toBe(4);
    expect(t.count('interactionSettled', (s) => s.outcome === 'blocked' && s.kind === 'sampling')).toBe(3);

    const first = await t.api.listInteractionAudit({ limit: 2 });
    expect(first.entries.map((e) => e.seq)).toEqual(seqs.slice(0, 2));
    expect(first.nextBefore).toBe(seqs[1]);
    const second = await t.api.listInteractionAudit({ limit: 2, before: first.nextBefore });
    expect(second.entries.map((e) => e.seq)).toEqual(seqs.slice(2));
    // Exactly a full last page: nothing older, so no further page is offered.
    expect(second.nextBefore).toBeUndefined();

    const walked: InteractionAuditEntry[] = [];
    let before: number | undefined;
    do {
      const page = await t.api.listInteractionAudit({ limit: 1, ...(before !== undefined ? { before } : {}) });
      walked.push(...page.entries);
      before = page.nextBefore;
    } while (before !== undefined);
    expect(walked).toEqual(all.entries);

    expect(await t.api.listInteractionAudit({ before: seqs[seqs.length - 1] })).toEqual({ entries: [] });
  });

  it('validates its input', async () => {
    const t = startHost();
    for (const input of [{ limit: 0 }, { limit: 201 }, { before: 0 }, { before: 1.5 }, { limit: 10, serverId: 'x' }]) {
      await expect(t.api.listInteractionAudit(input as { limit: number })).rejects.toMatchObject({ code: 'invalid_input' });
    }
    expect(await t.api.listInteractionAudit({ limit: 5 })).toEqual({ entries: [] });
  });
});
