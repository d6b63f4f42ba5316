/**
 * What apps want the model to know (`ui/update-model-context`): the latest context of each app view,
 * per conversation, waiting for the conversation's next message — it goes with that message as a
 * block the conversation shows ("From the app"), the way an attachment does, and is then released.
 * The spec's "each update overwrites the previous one" and "send only the last update" hold per view.
 */
import type { AppModelContextView, ChatBlock } from '@contract';
import type { Clock } from '../clock';
import type { AppView } from './app-views';

/** Characters of one app's context the model gets at most. */
export const MAX_APP_CONTEXT_CHARS = 50_000;

type ResourceBlock = Extract<ChatBlock, { type: 'resource' }>;

interface Waiting {
  view: AppModelContextView;
  block: ResourceBlock;
}

export class AppModelContexts {
  private readonly byConversation = new Map<string, Map<string, Waiting>>();

  constructor(private readonly clock: Clock) {}

  /** Replaces the view's waiting context. */
  set(
    view: AppView & { conversationId: string },
    content: Record<string, unknown>[],
    structured?: Record<string, unknown>,
  ): AppModelContextView {
    const text = contextText(content, structured);
    const contextView: AppModelContextView = {
      viewId: view.viewId,
      conversationId: view.conversationId,
      serverId: view.serverId,
      serverName: view.serverName,
      tool: view.tool,
      text,
      updatedAt: this.clock.now().toISOString(),
    };
    const block: ResourceBlock = {
      type: 'resource',
      serverId: view.serverId,
      serverName: view.serverName,
      uri: view.resourceUri,
      name: `Context from the app of ${view.tool}`,
      origin: 'app',
      mimeType: 'text/plain',
      text,
      chars: text.length,
    };
    let waiting = this.byConversation.get(view.conversationId);
    if (!waiting) this.byConversation.set(view.conversationId, (waiting = new Map()));
    waiting.set(view.viewId, { view: contextView, block });
    return contextView;
  }

  /** The blocks waiting for the conversation's next message, and how to let go of them once it is sent. */
  take(conversationId: string): { blocks: ChatBlock[]; release(): void } {
    const waiting = this.byConversation.get(conversationId);
    const taken = waiting ? [...waiting.values()] : [];
    return {
      blocks: taken.map((w) => w.block),
      release: () => {
        for (const w of taken) if (waiting?.get(w.view.viewId) === w) waiting.delete(w.view.viewId);
        if (waiting?.size === 0) this.byConversation.delete(conversationId);
      },
    };
  }

  /** A view closed before its context was sent: it stays (the app set it; it still goes with the next message). */
  forgetConversation(conversationId: string): void {
    this.byConversation.delete(conversationId);
  }
}

/** The context as the model reads it: the text blocks, other blocks described, structured content as JSON. */
function contextText(content: Record<string, unknown>[], structured?: Record<string, unknown>): string {
  const parts = content.map((block) =>
    block.type === 'text' && typeof block.text === 'string' ? block.text : `[${String(block.type ?? 'unknown')} content]`,
  );
  if (structured !== undefined) parts.push(`Structured content:\n${JSON.stringify(structured, null, 2)}`);
  const text = parts.join('\n\n');
  return text.length > MAX_APP_CONTEXT_CHARS
    ? `${text.slice(0, MAX_APP_CONTEXT_CHARS)}\n[… cut at ${MAX_APP_CONTEXT_CHARS} characters]`
    : text;
}
