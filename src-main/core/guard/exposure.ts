/**
 * The three-way risk, per conversation: what it has taken in. A conversation that holds private data
 * (a file from a shared folder, a resource) and untrusted content (a flagged result, the result of a
 * tool that reaches the open world) is one prompt injection away from sending the first out through
 * a tool that can. For such a call, standing "Always allow" decisions are set aside (see guard-area).
 * Kept in memory only: a restart begins with a clean slate, as the model's context is rebuilt anyway.
 */
export type ExposureKind = 'private' | 'untrusted';

interface Taken {
  private?: string;
  untrusted?: string;
}

/** Conversations remembered at most (the oldest forgotten first): a bound, not a feature. */
const MAX_CONVERSATIONS = 1000;

export class Exposure {
  private readonly conversations = new Map<string, Taken>();

  /** The conversation took in something of this kind; `why` says what ("a file from a shared folder of files"). The first reason is kept. */
  note(conversationId: string, kind: ExposureKind, why: string): void {
    const taken = this.conversations.get(conversationId) ?? {};
    this.conversations.delete(conversationId);
    taken[kind] ??= why;
    this.conversations.set(conversationId, taken);
    if (this.conversations.size > MAX_CONVERSATIONS) this.conversations.delete(this.conversations.keys().next().value!);
  }

  /** What the conversation has taken in. */
  of(conversationId: string): Readonly<Taken> {
    return this.conversations.get(conversationId) ?? {};
  }

  /**
   * The one sentence the consent dialog shows when a call that can send data out comes from a
   * conversation holding both; undefined when it does not.
   */
  riskFor(conversationId: string | undefined, tool: string): string | undefined {
    if (conversationId === undefined) return undefined;
    const taken = this.conversations.get(conversationId);
    if (!taken?.private || !taken.untrusted) return undefined;
    return `This conversation has read ${taken.private} and taken in ${taken.untrusted}; ${tool} can send data out, so "Always allow" does not apply to this call.`;
  }

  forget(conversationId: string): void {
    this.conversations.delete(conversationId);
  }
}
