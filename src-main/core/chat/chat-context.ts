/**
 * What the user adds to a chat message from servers: attached resources and a chosen prompt. Both are
 * read by the host on the user's action (audited) and held until the message is sent, so what the
 * model gets is exactly what the user saw sized in the composer — and nothing else: this module only
 * ever turns what the user attached or chose into message blocks.
 *
 * An attachment becomes `resource` blocks (one per content item): text with its URI and name, a
 * supported image as an image, anything else binary described, never its bytes. A prompt becomes
 * its messages, each marked with the prompt it came from. The message's budget (Settings) bounds the
 * characters of text all of it carries; over the budget nothing is sent.
 */
import type { GetPromptResult, ReadResourceResult } from '@modelcontextprotocol/client';
import { randomUUID } from 'node:crypto';
import {
  base64Bytes,
  formatBytes,
  HostCallError,
  readBlock,
  resourceLinkText,
  type AttachmentView,
  type ChatBlock,
  type ContentFlag,
  type MessageRole,
} from '@contract';
import type { TextReview, TextReviewContext } from '../guard/scanner/content-review';
import { MAX_MODEL_IMAGE_CHARS } from './tool-results';

type ResourceBlock = Extract<ChatBlock, { type: 'resource' }>;

/** Image types the model accepts as images (others are described). */
const MODEL_IMAGES = /^image\/(png|jpeg|gif|webp)$/i;
/** The largest budget Settings allows: text beyond it can never be sent, so it is not held. */
export const MAX_HELD_TEXT = 1_000_000;

/** What the chat needs from resources and prompts (host.ts wires the resource reader and the held prompts). */
export interface ChatContextSources {
  /** Reads a resource for an attachment (the whole answer), audited as a read. */
  readForAttachment(serverId: string, uri: string): Promise<{ result: ReadResourceResult; serverName: string; name?: string }>;
  /** A prompt fetched for the chat (`getPrompt({ purpose: 'chat' })`), until used. */
  heldPrompt(useId: string): HeldChatPrompt | undefined;
  releasePrompt(useId: string): void;
  /**
   * What tools' apps want the model to know in this conversation (MCP Apps `ui/update-model-context`):
   * it goes with the next message, then is released.
   */
  appContexts?(conversationId: string): { blocks: ChatBlock[]; release(): void };
  /**
   * Scans a resource read for an attachment or a prompt's messages (the content scanner, bounded) and
   * lets Flagged content decide; undefined when clean. Absent: nothing is scanned.
   */
  review?(text: string, context: TextReviewContext): Promise<TextReview | undefined>;
  /** Records that an attachment or prompt went into a conversation (`flagged`: what the scanner found, in words). */
  recordUse(use: {
    action: 'attach' | 'prompt-chat';
    serverId: string;
    serverName: string;
    target: string;
    detail?: string;
    conversationId: string;
    chars: number;
    flagged?: string;
  }): void;
}

/** The text of blocks the model would read (what the scanner looks at). */
export function scannedText(blocks: readonly ChatBlock[]): string {
  return blocks
    .map((b) => (b.type === 'text' ? b.text : b.type === 'resource' ? (b.text ?? '') : ''))
    .filter(Boolean)
    .join('\n');
}

/** Why flagged content from a server was left out, naming the server and what it was. */
export function withheldMessage(what: string, serverName: string, flags: readonly ContentFlag[], verb: string): string {
  const quote = flags[0].match.length > 80 ? `${flags[0].match.slice(0, 79)}…` : flags[0].match;
  return `${what} from ${serverName} was not ${verb}: Patchbay flagged text in it that reads as aimed at the model ("${quote}"), and it was withheld (Settings › Flagged content).`;
}

export interface HeldChatPrompt {
  serverId: string;
  serverName: string;
  name: string;
  arguments: Record<string, string>;
  result: GetPromptResult;
}

type Item = Record<string, unknown>;
const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** One content item (of a read, or embedded in a prompt) as the block the model gets. */
export function contentBlock(
  source: { serverId: string; serverName: string; name: string; origin: ResourceBlock['origin'] },
  item: Item,
  fallbackUri: string,
): ResourceBlock {
  const uri = str(item.uri) ?? fallbackUri;
  const mimeType = str(item.mimeType);
  const base = { type: 'resource' as const, ...source, uri, ...(mimeType ? { mimeType } : {}) };
  const text = str(item.text);
  if (text !== undefined) return { ...base, text, chars: text.length };
  const blob = str(item.blob) ?? '';
  if (mimeType && MODEL_IMAGES.test(mimeType) && blob.length <= MAX_MODEL_IMAGE_CHARS)
    return { ...base, image: { mediaType: mimeType.toLowerCase(), data: blob }, chars: 0 };
  const note = `Binary content (${mimeType ?? 'unknown type'}, ${formatBytes(base64Bytes(blob))}), not included.`;
  return { ...base, note, chars: note.length };
}

/** Characters a set of blocks costs the message's budget. */
export function blockChars(blocks: readonly ChatBlock[]): number {
  return blocks.reduce((n, b) => n + (b.type === 'resource' ? b.chars : b.type === 'text' ? b.text.length : 0), 0);
}

interface HeldAttachment {
  view: AttachmentView;
  blocks: ResourceBlock[];
}

/**
 * Attachments read for messages being written, by id (at most 64, the oldest let go first). Text
 * beyond what any budget allows is not held: such an attachment can only be removed.
 */
export class AttachmentStaging {
  private readonly held = new Map<string, HeldAttachment>();

  constructor(
    private readonly sources: ChatContextSources,
    private readonly max = 64,
  ) {}

  /** Reads the resource and holds it; the view says what it will cost. */
  async attach(serverId: string, uri: string, name?: string): Promise<AttachmentView> {
    const { view, blocks } = await this.read(serverId, uri, name);
    const attachmentId = randomUUID();
    const held = { view: { ...view, attachmentId }, blocks };
    this.held.set(attachmentId, held);
    while (this.held.size > this.max) this.held.delete(this.held.keys().next().value!);
    return held.view;
  }

  detach(attachmentId: string): void {
    this.held.delete(attachmentId);
  }

  /** The blocks of an attachment still held (for the context meter: it never reads anything). */
  heldBlocks(attachmentId: string): ChatBlock[] | undefined {
    return this.held.get(attachmentId)?.blocks;
  }

  /** The blocks of an attachment for sending: the held ones, else read again (the host restarted meanwhile). */
  async blocksFor(ref: { attachmentId: string; serverId: string; uri: string }): Promise<HeldAttachment> {
    const held = this.held.get(ref.attachmentId);
    if (held && held.view.serverId === ref.serverId && held.view.uri === ref.uri) return held;
    const fresh = await this.read(ref.serverId, ref.uri);
    return { view: { ...fresh.view, attachmentId: ref.attachmentId }, blocks: fresh.blocks };
  }

  private async read(
    serverId: string,
    uri: string,
    givenName?: string,
  ): Promise<{ view: Omit<AttachmentView, 'attachmentId'>; blocks: ResourceBlock[] }> {
    const { result, serverName, name: listedName } = await this.sources.readForAttachment(serverId, uri);
    const name = listedName ?? givenName ?? uri.split(/[?#]/)[0].split('/').filter(Boolean).at(-1) ?? uri;
    const items = (Array.isArray(result.contents) ? result.contents : []) as Item[];
    if (items.length === 0) throw new HostCallError('invalid_input', `Server "${serverName}" returned nothing for ${uri}.`);
    let blocks = items.map((item) => contentBlock({ serverId, serverName, name, origin: 'attachment' }, item, uri));
    const chars = blockChars(blocks);
    const bytes = items.reduce((n, item) => n + (str(item.text)?.length ?? base64Bytes(str(item.blob) ?? '')), 0);
    const kind = blocks.some((b) => b.text !== undefined) ? 'text' : blocks.some((b) => b.image) ? 'image' : 'binary';
    let problem: string | undefined;
    if (chars > MAX_HELD_TEXT) {
      problem = `${formatBytes(chars)} of text: more than a message can carry. Remove it, or attach a smaller resource.`;
      blocks = [];
    }
    // Scanned when read for the chat, before it is held: what Flagged content withholds is never attached.
    const review =
      blocks.length > 0 ? await this.sources.review?.(scannedText(blocks), { serverId, serverName, source: 'resource', name }) : undefined;
    if (review?.decision === 'withheld')
      throw new HostCallError('invalid_input', withheldMessage(`The resource "${name}"`, serverName, review.flags, 'attached'));
    const flags = review?.flags;
    if (flags) blocks = blocks.map((block) => ({ ...block, flags }));
    const mimeType = str(items[0].mimeType);
    return {
      view: {
        ...{ serverId, serverName, uri, name, ...(mimeType ? { mimeType } : {}), kind, chars, bytes },
        ...(problem ? { problem } : {}),
        ...(flags ? { flags } : {}),
      },
      blocks,
    };
  }
}

/**
 * A chosen prompt's messages as stored chat messages, in order, each starting with the marker of the
 * prompt it came from. Text stays text; images and embedded resources become what the model can take.
 */
export function promptMessages(prompt: HeldChatPrompt): { role: MessageRole; content: ChatBlock[] }[] {
  const messages = Array.isArray(prompt.result.messages) ? prompt.result.messages : [];
  const source = { serverId: prompt.serverId, serverName: prompt.serverName, origin: 'prompt' as const };
  return messages.map((message, i) => {
    const content = (typeof message.content === 'object' && message.content !== null ? message.content : {}) as Item;
    const marker: ChatBlock = {
      type: 'prompt',
      serverId: prompt.serverId,
      serverName: prompt.serverName,
      name: prompt.name,
      arguments: prompt.arguments,
      part: i + 1,
      of: messages.length,
    };
    return { role: message.role === 'assistant' ? 'assistant' : 'user', content: [marker, promptBlock(source, content)] };
  });
}

function promptBlock(source: { serverId: string; serverName: string; origin: 'prompt' }, content: Item): ChatBlock {
  const block = readBlock(content);
  switch (block.type) {
    case 'text':
      return block;
    case 'image': {
      const mimeType = block.mimeType ?? '';
      if (MODEL_IMAGES.test(mimeType) && block.data.length <= MAX_MODEL_IMAGE_CHARS)
        return { type: 'image', mediaType: mimeType.toLowerCase(), data: block.data };
      return {
        type: 'text',
        text: `[An image (${mimeType || 'unknown type'}, ${formatBytes(base64Bytes(block.data))}) from the prompt, not included.]`,
      };
    }
    case 'audio':
      return { type: 'text', text: `[Audio (${block.mimeType ?? 'unknown type'}) from the prompt — not something the model can hear.]` };
    case 'resource':
      return contentBlock({ ...source, name: block.uri.split('/').filter(Boolean).at(-1) ?? block.uri }, block, block.uri);
    case 'resource_link':
      return { type: 'text', text: resourceLinkText(block) };
    case 'other':
      return { type: 'text', text: `[${String(content.type)} content from the prompt]` };
  }
}
