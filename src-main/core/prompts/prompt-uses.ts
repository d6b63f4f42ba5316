import type { GetPromptResult } from '@modelcontextprotocol/client';

/** A fetched prompt held for the chat message that will use it. */
export interface HeldPrompt {
  serverId: string;
  serverName: string;
  name: string;
  title?: string;
  arguments: Record<string, string>;
  result: GetPromptResult;
}

/**
 * Prompts fetched for the chat (`/` in the message box), held by use id until the message using them
 * is sent (or 32 newer ones pushed them out: then the user chooses the prompt again).
 */
export class PromptUses {
  private readonly held = new Map<string, HeldPrompt>();

  constructor(private readonly max = 32) {}

  hold(useId: string, prompt: HeldPrompt): void {
    this.held.set(useId, prompt);
    while (this.held.size > this.max) this.held.delete(this.held.keys().next().value!);
  }

  get(useId: string): HeldPrompt | undefined {
    return this.held.get(useId);
  }

  /** Forgets it once a message used it. */
  release(useId: string): void {
    this.held.delete(useId);
  }
}
