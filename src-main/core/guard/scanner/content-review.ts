/**
 * Each tool result is scanned before the model sees it, and the user's setting **Flagged content**
 * decides what a flag does: `ask` (a question in the one queue; the turn waits for the answer),
 * `warn` (the card shows the flag; the model gets the result with a note saying to treat it as data)
 * or `block` (the model gets a note instead). A flagged result is told to `onFlagged`, the hook the
 * three-way risk (untrusted content in the conversation) listens on.
 */
import crypto from 'node:crypto';
import type { ToolResultBlock, FlaggedContentMode, ContentFlag, FlagDecision } from '@contract';
import type { QuestionQueue } from '../../questions/question-queue';
import type { ContentScanner } from './content-scanner';

/** How long a flagged-content question waits by default. */
const QUESTION_TIMEOUT_MS = 10 * 60_000;

/** Characters of the flagged text shown in the question. */
const PREVIEW_CHARS = 2_000;

export interface ContentReviewDeps {
  scanner: ContentScanner;
  /** The setting in force now. */
  mode(): FlaggedContentMode;
  questions: QuestionQueue;
  now(): Date;
  /** How long the question waits (then withheld: nothing flagged reaches the model unseen); default 10 minutes. */
  timeoutMs?(): number;
  /** A result was flagged in a conversation (the three-way risk learns of untrusted content). */
  onFlagged?(conversationId: string, why: string): void;
}

export interface ReviewContext {
  conversationId: string;
  serverId: string;
  serverName: string;
  toolName: string;
  signal?: AbortSignal;
}

/** What a resource being attached or a prompt being used is, for the question and the risk's note. */
export interface TextReviewContext {
  serverId: string;
  serverName: string;
  source: 'resource' | 'prompt';
  /** The resource's or the prompt's name. */
  name: string;
  signal?: AbortSignal;
}

/** What the scanner found in a text and what Flagged content decided; undefined when clean. */
export interface TextReview {
  flags: ContentFlag[];
  decision: FlagDecision;
}

/** The text of a stored result the model would read (parts for the user only left out). */
export function modelText(block: Pick<ToolResultBlock, 'content' | 'userOnly'>): string {
  const hidden = new Set(block.userOnly ?? []);
  return block.content
    .flatMap((part, index) => {
      if (hidden.has(index)) return [];
      if (part.type === 'text') return [part.text];
      if (part.type === 'resource') return [part.text ?? ''];
      if (part.type === 'resource_link') return [`${part.name} ${part.title ?? ''} ${part.description ?? ''} ${part.uri}`];
      return [];
    })
    .join('\n');
}

export class ContentReview {
  constructor(private readonly deps: ContentReviewDeps) {}

  /** The result as stored and sent: unchanged when clean; with its flags and what was decided when flagged. */
  async reviewResult(block: ToolResultBlock, context: ReviewContext): Promise<ToolResultBlock> {
    const text = modelText(block);
    if (!text) return block;
    const report = await this.deps.scanner.scan(text, context.signal);
    if (report.findings.length === 0) return block;
    const flags = report.findings;
    this.deps.onFlagged?.(context.conversationId, `${context.toolName} on ${context.serverName}: ${describe(flags)}`);
    const decision = await this.decide(flags, text, context);
    return { ...block, flags, flagDecision: decision };
  }

  /**
   * A resource read for an attachment or a prompt's messages, scanned (bounded, like results) when
   * the chat uses them; Flagged content decides as for results. The three-way risk learns of it when
   * it goes into a conversation (the chat's `recordUse`, with `flaggedWhy`), not here: a resource is
   * attached to a draft before any conversation is known, and what is withheld never goes in.
   */
  async reviewText(text: string, context: TextReviewContext): Promise<TextReview | undefined> {
    if (!text) return undefined;
    const report = await this.deps.scanner.scan(text, context.signal);
    if (report.findings.length === 0) return undefined;
    const flags = report.findings;
    const decision = await this.decide(flags, text, { ...context, toolName: context.name });
    return { flags, decision };
  }

  private async decide(
    flags: ContentFlag[],
    text: string,
    context: Omit<ReviewContext, 'conversationId'> & { conversationId?: string; source?: 'resource' | 'prompt' },
  ): Promise<FlagDecision> {
    const mode = this.deps.mode();
    if (mode === 'warn') return 'sent';
    if (mode === 'block' || this.deps.questions.isClosed('content')) return 'withheld';
    const firstAt = Math.max(0, text.indexOf(flags[0].match) - 200);
    const preview = text.slice(firstAt, firstAt + PREVIEW_CHARS);
    return new Promise<FlagDecision>((resolve) => {
      const settle = (outcome: FlagDecision, note?: string) => ({ outcome, ...(note ? { note } : {}), effects: () => resolve(outcome) });
      this.deps.questions.ask<'content'>(
        {
          kind: 'content',
          id: crypto.randomUUID(),
          serverId: context.serverId,
          serverName: context.serverName,
          toolName: context.toolName,
          ...(context.source ? { source: context.source } : {}),
          ...(context.conversationId ? { conversationId: context.conversationId } : {}),
          flags,
          preview,
          requestedAt: this.deps.now().toISOString(),
        },
        {
          answer: (answer) => settle(answer.send ? 'sent' : 'withheld'),
          timedOut: () => settle('withheld', 'Nobody answered in time: the result was withheld from the model'),
          withdrawn: (note) => settle('withheld', note),
          shutdown: (note) => settle('withheld', note),
        },
        {
          timeoutMs: this.deps.timeoutMs?.() ?? QUESTION_TIMEOUT_MS,
          ...(context.signal ? { signal: context.signal } : {}),
          cancelNote: 'The turn was stopped',
        },
      );
    });
  }
}

/** Why a flagged resource or prompt makes a conversation hold untrusted content, in words. */
export function flaggedWhy(context: Pick<TextReviewContext, 'source' | 'name' | 'serverName'>, flags: readonly ContentFlag[]): string {
  return `the ${context.source} ${context.name} from ${context.serverName}: ${describe(flags)}`;
}

/** A flag list in a few words: "ignore-instructions, credential". */
function describe(flags: readonly ContentFlag[]): string {
  return [...new Set(flags.map((f) => f.rule))].join(', ');
}
