/**
 * Sending a message with what the user added from servers: the chosen prompt's messages first, then
 * the user's text with the attached resources. Everything is resolved and checked before anything is
 * committed — the prompt still held, every attachment readable and sendable, the whole within the
 * message's budget — so a refused message leaves the conversation as it was and the draft intact.
 * Each attachment and prompt that went in is recorded in the use trail, with the conversation.
 */
import { HostCallError, MAX_ATTACHMENTS, type ChatBlock, type ContentFlag, type ChatMessage, type Settings } from '@contract';
import { AttachmentStaging, blockChars, promptMessages, scannedText, withheldMessage, type ChatContextSources } from './chat-context';
import { flaggedWhy } from '../guard/scanner/content-review';
import type { ChatTurns } from './chat-turns';

export interface SendInput {
  conversationId: string;
  text: string;
  attachments: { attachmentId: string; serverId: string; uri: string }[];
  promptUseId?: string;
}

export class MessageSender {
  private readonly staging: AttachmentStaging | undefined;

  constructor(
    private readonly chat: ChatTurns,
    private readonly settings: () => Pick<Settings, 'attachmentBudgetChars'>,
    private readonly sources?: ChatContextSources,
  ) {
    this.staging = sources ? new AttachmentStaging(sources) : undefined;
  }

  attach(serverId: string, uri: string, name?: string) {
    return this.requireStaging().attach(serverId, uri, name);
  }

  detach(attachmentId: string): void {
    this.staging?.detach(attachmentId);
  }

  /** The blocks a draft carries besides its text: held attachments (ones no longer held are left out) and a held prompt's messages. */
  draftBlocks(attachmentIds: readonly string[], promptUseId?: string): { role: 'user' | 'assistant'; content: ChatBlock[] }[] {
    const attached = attachmentIds.flatMap((id) => this.staging?.heldBlocks(id) ?? []);
    const prompt = promptUseId !== undefined ? this.sources?.heldPrompt(promptUseId) : undefined;
    return [...(prompt ? promptMessages(prompt) : []), ...(attached.length > 0 ? [{ role: 'user' as const, content: attached }] : [])];
  }

  async send({ conversationId, text, attachments, promptUseId }: SendInput): Promise<ChatMessage> {
    const fromApps = this.sources?.appContexts?.(conversationId);
    if (attachments.length === 0 && promptUseId === undefined && !fromApps?.blocks.length) return this.chat.send(conversationId, text);
    this.chat.assertCanSend(conversationId);
    const sources = this.requireSources();
    const prompt = promptUseId !== undefined ? sources.heldPrompt(promptUseId) : undefined;
    if (promptUseId !== undefined && !prompt)
      throw new HostCallError('invalid_input', 'The prompt you chose is no longer held; choose it again with / in the message box.');
    const held = await Promise.all(attachments.map((ref) => this.requireStaging().blocksFor(ref)));
    const unsendable = held.find((h) => h.view.problem);
    if (unsendable) throw new HostCallError('invalid_input', `"${unsendable.view.name}" cannot be sent: ${unsendable.view.problem}`);
    let fromPrompt = prompt ? promptMessages(prompt) : [];
    // A prompt's messages are scanned when used (a resource was scanned when attached); Flagged content decides.
    const promptReview =
      prompt && fromPrompt.length > 0
        ? await sources.review?.(scannedText(fromPrompt.flatMap((m) => m.content)), {
            ...{ serverId: prompt.serverId, serverName: prompt.serverName, source: 'prompt', name: prompt.name },
          })
        : undefined;
    if (prompt && promptReview?.decision === 'withheld')
      throw new HostCallError(
        'invalid_input',
        withheldMessage(`The prompt "${prompt.name}"`, prompt.serverName, promptReview.flags, 'used'),
      );
    if (promptReview) fromPrompt = flagFirstMarker(fromPrompt, promptReview.flags);
    const blocks: ChatBlock[] = [...held.flatMap((h) => h.blocks), ...(fromApps?.blocks ?? [])];
    const chars = blockChars(blocks) + fromPrompt.reduce((n, m) => n + blockChars(m.content), 0);
    const budget = this.settings().attachmentBudgetChars;
    if (chars > budget)
      throw new HostCallError(
        'invalid_input',
        `The attachments${prompt ? ' and the prompt' : ''} come to ${chars.toLocaleString('en-US')} characters, over this message's budget of ${budget.toLocaleString('en-US')} (Settings › Chat). Remove some.`,
      );
    const images = [...blocks, ...fromPrompt.flatMap((m) => m.content)].filter(
      (b) => b.type === 'image' || (b.type === 'resource' && b.image),
    );
    if (images.length > MAX_ATTACHMENTS) throw new HostCallError('invalid_input', `At most ${MAX_ATTACHMENTS} images go with one message.`);

    const message = this.chat.send(conversationId, text, {
      attachments: blocks,
      promptMessages: fromPrompt,
      titleHint: prompt ? `${prompt.name} (${prompt.serverName})` : held[0]?.view.name,
    });
    fromApps?.release();
    for (const h of held) {
      sources.recordUse({
        action: 'attach',
        serverId: h.view.serverId,
        serverName: h.view.serverName,
        target: h.view.uri,
        conversationId,
        chars: blockChars(h.blocks),
        ...(h.view.flags
          ? { flagged: flaggedWhy({ source: 'resource', name: h.view.name, serverName: h.view.serverName }, h.view.flags) }
          : {}),
      });
      this.staging?.detach(h.view.attachmentId);
    }
    if (prompt && promptUseId !== undefined) {
      sources.recordUse({
        action: 'prompt-chat',
        serverId: prompt.serverId,
        serverName: prompt.serverName,
        target: prompt.name,
        detail: JSON.stringify(prompt.arguments),
        conversationId,
        chars: fromPrompt.reduce((n, m) => n + blockChars(m.content), 0),
        ...(promptReview
          ? { flagged: flaggedWhy({ source: 'prompt', name: prompt.name, serverName: prompt.serverName }, promptReview.flags) }
          : {}),
      });
      sources.releasePrompt(promptUseId);
    }
    return message;
  }

  private requireSources(): ChatContextSources {
    if (!this.sources) throw new HostCallError('internal', 'Attachments and prompts are not available in this host.');
    return this.sources;
  }

  private requireStaging(): AttachmentStaging {
    if (!this.staging) throw new HostCallError('internal', 'Attachments are not available in this host.');
    return this.staging;
  }
}

/** The prompt's messages with the scanner's flags on its first marker (the card shows them; the model gets a note). */
function flagFirstMarker(messages: ReturnType<typeof promptMessages>, flags: ContentFlag[]): ReturnType<typeof promptMessages> {
  return messages.map((message, i) =>
    i === 0 ? { ...message, content: message.content.map((block) => (block.type === 'prompt' ? { ...block, flags } : block)) } : message,
  );
}
