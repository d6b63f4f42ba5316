import { useEffect, useState } from 'react';
import type { ContextMeasure } from '@contract';
import { useAppStore } from '../../stores/use-app-store';
import { messageOf } from '../../ui/call-errors';

/** How long the draft's context must hold still before the host counts it again. */
const DEBOUNCE_MS = 300;

export interface MeasureRequest {
  /** '' before the draft has a conversation. */
  conversationId: string;
  draftChars: number;
  attachmentIds: readonly string[];
  promptUseId?: string;
}

/**
 * The host's count of what the next request carries, asked again (debounced) whenever something it
 * depends on changes: a server's state or tools, the conversation's servers, model or messages, the
 * system prompt, the draft's attachments and length.
 */
export function useContextMeasure({ conversationId, draftChars, attachmentIds, promptUseId }: MeasureRequest) {
  const api = useAppStore((s) => s.api);
  const servers = useAppStore((s) => s.servers);
  const conversation = useAppStore((s) => (conversationId ? s.conversations[conversationId] : undefined));
  const systemPrompt = useAppStore((s) => s.settings?.systemPrompt);
  // A skill switched, listed or refused changes what the skill tool names.
  const skillsRevision = useAppStore((s) => s.skillsRevision);
  const [measure, setMeasure] = useState<ContextMeasure | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  // What the count depends on, as one key: it changes exactly when a new count is due.
  const serverKey = Object.values(servers)
    .map((s) => `${s.config.id}:${s.runtime.status}:${s.runtime.counts?.tools ?? 0}:${s.runtime.since}`)
    .join('|');
  const conversationKey = conversation
    ? `${conversation.serverIds?.join(',') ?? '*'}:${conversation.messageCount}:${conversation.turn}:${conversation.providerId}:${conversation.model}`
    : '';
  // The draft's length moves on every keystroke: counted in steps of 40 characters (about 10 tokens).
  const key = [
    conversationId,
    serverKey,
    conversationKey,
    systemPrompt,
    skillsRevision,
    Math.ceil(draftChars / 40),
    attachmentIds.join(','),
    promptUseId,
  ].join('\n');

  useEffect(() => {
    let current = true;
    const timer = setTimeout(() => {
      api
        .measureContext({
          ...(conversationId ? { conversationId } : {}),
          draftChars,
          attachmentIds: [...attachmentIds],
          ...(promptUseId ? { promptUseId } : {}),
        })
        .then((next) => {
          if (!current) return;
          setMeasure(next);
          setFailure(null);
        })
        .catch((error: unknown) => current && setFailure(messageOf(error)));
    }, DEBOUNCE_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
    // `key` stands for every input above.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [api, key]);

  return { measure, failure };
}
