/**
 * The Answer limit (`maxAnswerChars`) against a real HTTP stream: the scripted OpenAI-compatible
 * endpoint streams 50 MB of text; the host stops reading at the limit, ends the request, keeps what
 * fits and names the limit and its setting.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '@contract';
import { startHost } from '../../test-support/tool-host';
import { useScriptedOpenAi } from '../../test-support/use-scripted-openai';
import { waitFor } from '../servers/wait';

const openai = useScriptedOpenAi();

describe('an answer longer than the Answer limit', () => {
  it(
    'stops being read at the limit: the request ends, the first part is kept, the chat names the limit and its setting',
    { timeout: 60_000 },
    async () => {
      expect(DEFAULT_SETTINGS.maxAnswerChars).toBe(1_000_000);
      const t = startHost();
      const local = await t.api.addProvider({ type: 'openai-compatible', name: 'Ollama', baseUrl: openai.url });
      await openai.reset();
      await openai.script([{ type: 'text', text: 'Here it comes. ', bulkChars: 50_000_000 }]);
      const conversation = await t.api.createConversation();
      await t.api.setConversationModel({ id: conversation.id, providerId: local.id, model: 'qwen2.5:7b' });
      await t.api.sendMessage({ conversationId: conversation.id, text: 'Write forever' });

      const error = await waitFor(async () => (await t.api.getSnapshot()).chat.conversations[0].lastError, {
        timeoutMs: 30_000,
        what: 'the answer-too-long error',
      });
      expect(error).toMatchObject({ kind: 'answer-too-long', retryable: true });
      expect(error.message).toContain('limit of 1,000,000 characters');
      expect(error.message).toContain('"Answer limit (characters)" in Settings');

      const messages = (await t.api.listMessages({ conversationId: conversation.id })).messages;
      expect(messages).toHaveLength(2);
      const answer = messages[1];
      expect(answer.status).toBe('interrupted');
      const text = answer.content.map((b) => (b.type === 'text' ? b.text : '')).join('');
      expect(text.length).toBe(1_000_000);
      expect(text.startsWith('Here it comes. All work')).toBe(true);

      // The host stopped reading: the endpoint saw its client go long before 50 MB went out.
      await waitFor(async () => ((await openai.chatRequests())[0].streamedChars ?? 0) > 0, { what: 'the stream to be counted' });
      const [request] = await openai.chatRequests();
      expect(request.streamedChars).toBeLessThan(10_000_000);
    },
  );
});
