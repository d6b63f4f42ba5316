/** What the skills tests share: a refusal's words, and a chat turn with the scripted model run to its end. */
import { expect } from 'vitest';
import { HostCallError } from '@contract';
import type { TestHost } from './tool-host';
import type { ScriptedLlm, ScriptStep } from '../core/chat/test-support/scripted-llm';
import { waitFor } from '../core/servers/wait';

/** The message of the `HostCallError` a call is refused with. */
export async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(HostCallError);
  return (error as Error).message;
}

/**
 * Sends `text` in a new conversation with the model scripted to `steps` and waits for `messages`
 * stored messages; returns the tool results' blocks and each one's first text.
 */
export async function skillTurn(t: TestHost, llm: ScriptedLlm, steps: ScriptStep[], text: string, messages: number) {
  await llm.reset();
  await llm.script(steps);
  const conversation = await t.api.createConversation();
  await t.api.sendMessage({ conversationId: conversation.id, text });
  await waitFor(async () => (await t.api.listMessages({ conversationId: conversation.id })).messages.length === messages, {
    timeoutMs: 30_000,
    what: 'the turn to end',
  });
  const results = (await t.api.listMessages({ conversationId: conversation.id })).messages.flatMap((m) =>
    m.content.flatMap((b) => (b.type === 'tool_result' ? [b] : [])),
  );
  return { results, text: (i: number) => (results[i]?.content[0] as { text: string }).text };
}
