/**
 * Token counts remembered by the hash of what was counted: tool definitions change rarely and a
 * conversation's history only grows, while the meter asks again on every change of the draft's
 * context — so each text is tokenized once, and a count asked for again never leaves the host's thread.
 */
import crypto from 'node:crypto';
import type { LlmContentBlock, LlmMessage, LlmTool } from '../llm/llm-types';
import { splitLongRuns } from './tokenizer';
import { TokenizerWorker, type TokenizerWorkerOptions } from './tokenizer-worker';

/** Texts remembered at most (a fleet of 50 servers × 40 tools is 2,000 definitions). */
const MAX_REMEMBERED = 50_000;
/**
 * What an image costs, whatever its size: providers count images by their pixels, which the host does
 * not decode; about the cost of a 1,000 × 1,000 image on Claude (pixels / 750) and on OpenAI (high detail).
 */
export const IMAGE_TOKENS = 1_500;

/** The text a tool definition is counted as: the JSON a Messages API request carries for it. */
export function toolDefinitionText(tool: LlmTool): string {
  return JSON.stringify({
    name: tool.name,
    ...(tool.description ? { description: tool.description } : {}),
    input_schema: { type: 'object', ...tool.inputSchema },
  });
}

export class TokenCounter {
  private readonly counted = new Map<string, Promise<number>>();
  private readonly tokenizer: TokenizerWorker;

  constructor(options: TokenizerWorkerOptions = {}) {
    this.tokenizer = new TokenizerWorker(options);
  }

  /** Tokens of a text (remembered). */
  count(text: string): Promise<number> {
    if (text === '') return Promise.resolve(0);
    const key = keyOf(text);
    let tokens = this.counted.get(key);
    if (!tokens) {
      tokens = this.tokenizer.count([...splitLongRuns(text)]);
      // Forgotten if counting failed, so the next ask tries again.
      tokens.catch(() => this.counted.delete(key));
      if (this.counted.size >= MAX_REMEMBERED) this.counted.delete(this.counted.keys().next().value!);
      this.counted.set(key, tokens);
    }
    return tokens;
  }

  /**
   * Tokens of a text counted before (or being counted), without counting: undefined when it was not.
   * For who wants a count only if it is free (the skills' scans for the chat): it never starts the worker.
   */
  known(text: string): Promise<number> | undefined {
    return text === '' ? Promise.resolve(0) : this.counted.get(keyOf(text));
  }

  /** Stops the tokenizer's worker (the host's shutdown); counts still waiting fail. */
  dispose(): Promise<void> {
    return this.tokenizer.dispose();
  }

  /** Tokens of each tool definition, in order. */
  countTools(tools: readonly LlmTool[]): Promise<number[]> {
    return Promise.all(tools.map((tool) => this.count(toolDefinitionText(tool))));
  }

  /** Tokens of the messages of a request (their content; the few tokens of framing per message are left out). */
  async countMessages(messages: readonly LlmMessage[]): Promise<number> {
    const counts = await Promise.all(messages.flatMap((m) => m.content.map((block) => this.countBlock(block))));
    return counts.reduce((a, b) => a + b, 0);
  }

  private async countBlock(block: LlmContentBlock): Promise<number> {
    switch (block.type) {
      case 'text':
        return this.count(block.text);
      case 'image':
        return IMAGE_TOKENS;
      case 'tool_use':
        return this.count(`${block.name} ${JSON.stringify(block.input)}`);
      case 'tool_result': {
        const parts = await Promise.all(block.content.map((part) => (part.type === 'text' ? this.count(part.text) : IMAGE_TOKENS)));
        return parts.reduce((a, b) => a + b, 0);
      }
    }
  }
}

function keyOf(text: string): string {
  return crypto.createHash('sha1').update(text).digest('base64');
}
