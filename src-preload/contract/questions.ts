import { z } from 'zod';
import type { FlaggedContentOutcome, FlaggedContentRequest } from './content-flags';
import { CONSENT_DECISIONS, type ConsentOutcome, type ConsentRequestView } from './consent';
import { IdString, method } from './method';
import type { RootsConsentOutcome, RootsConsentRequest } from './roots';
import type { ElicitationRequestView, InteractionOutcome, SamplingRequestView } from './sampling';
import { ToolArgsSchema } from './tools';

/**
 * Questions to the user: everything the host waits on the user for — a model's tool call (`tool`), a
 * server's sampling request (`sampling`) or elicitation (`elicitation`), a server asking for folders
 * (`roots`), a flagged tool result before the model sees it (`content`) — is one entry of one queue in the core. The renderer sees them (`questionAsked`,
 * `questionUpdated`, `questionSettled`, and the snapshot's `questions`), shows the oldest, and answers
 * with `answerQuestion`; it can never create one. Each settles exactly once: answered, timed out (the
 * kind's default answer), withdrawn (its server went away or cancelled) or at quit.
 */

/** The kinds of question, and what each one's entry carries (the kind's own request view). */
export type Question =
  | ({ kind: 'tool' } & ConsentRequestView)
  | ({ kind: 'sampling' } & SamplingRequestView)
  | ({ kind: 'elicitation' } & ElicitationRequestView)
  | ({ kind: 'roots' } & RootsConsentRequest)
  | ({ kind: 'content' } & FlaggedContentRequest);

export type QuestionKind = Question['kind'];

/** Every kind, for what applies to all (quitting answers every one). A new kind is added to `Question` and here. */
export const QUESTION_KINDS = ['tool', 'sampling', 'elicitation', 'roots', 'content'] as const satisfies readonly QuestionKind[];
// Fails to compile when a kind of `Question` is missing from the list.
const _everyKind: readonly (typeof QUESTION_KINDS)[number][] = [] as QuestionKind[];

/** The question of one kind. */
export type QuestionOf<K extends QuestionKind> = Extract<Question, { kind: K }>;

/** How a question ended, in its kind's words. */
export interface QuestionOutcomes {
  tool: ConsentOutcome;
  sampling: InteractionOutcome;
  elicitation: InteractionOutcome;
  roots: RootsConsentOutcome;
  content: FlaggedContentOutcome;
}

/** A question is over; the dialog showing it closes. `note` says why when nobody answered it. */
export type QuestionSettled = {
  [K in QuestionKind]: { id: string; kind: K; serverId: string; outcome: QuestionOutcomes[K]; note?: string };
}[QuestionKind];

const ToolAnswerSchema = z
  .object({
    kind: z.literal('tool'),
    decision: z.enum(CONSENT_DECISIONS),
    /** Arguments as the user edited them (validated against the tool's schema before anything runs). */
    editedArgs: ToolArgsSchema.optional(),
  })
  .strict();

const SamplingAnswerSchema = z.discriminatedUnion('action', [
  /** Approves the (edited) request: the provider generates; the response comes back for review. */
  z
    .object({
      kind: z.literal('sampling'),
      action: z.literal('approve'),
      /** Edited text blocks: message index, block index, new text. */
      edits: z
        .array(z.object({ message: z.number().int().min(0), block: z.number().int().min(0), text: z.string().max(1_000_000) }).strict())
        .max(1000)
        .default([]),
      systemPrompt: z.string().max(1_000_000).optional(),
      model: z.string().min(1).max(200),
      /** The provider of `model` (absent: the preselected one's). */
      providerId: IdString.optional(),
    })
    .strict(),
  /** Sends the reviewed (maybe edited) response to the server. */
  z.object({ kind: z.literal('sampling'), action: z.literal('send'), text: z.string().max(1_000_000) }).strict(),
  /** Rejects at either step: the server gets the spec's user-rejected error (-1). */
  z.object({ kind: z.literal('sampling'), action: z.literal('reject') }).strict(),
]);

const ElicitationAnswerSchema = z
  .object({
    kind: z.literal('elicitation'),
    action: z.enum(['accept', 'decline', 'cancel']),
    /** Accept: what the form sends, validated against the requested schema. */
    content: z
      .record(z.string().max(200), z.union([z.string().max(100_000), z.number(), z.boolean(), z.array(z.string().max(10_000)).max(1000)]))
      .optional(),
  })
  .strict();

const RootsAnswerSchema = z
  .object({
    kind: z.literal('roots'),
    share: z.boolean(),
    /** Share only these folders; omitted with `share: true` means all folders, including later ones. */
    rootIds: z.array(IdString).max(1000).optional(),
    /** The same answer to every open question of this one's group (the dialog's Share / Don't share for all). */
    wholeGroup: z.boolean().optional(),
  })
  .strict();

/** Flagged content: let the model see it, or withhold it. */
const ContentAnswerSchema = z.object({ kind: z.literal('content'), send: z.boolean() }).strict();

const AnswerQuestionSchema = z
  .object({
    id: IdString,
    answer: z.discriminatedUnion('kind', [
      ToolAnswerSchema,
      SamplingAnswerSchema,
      ElicitationAnswerSchema,
      RootsAnswerSchema,
      ContentAnswerSchema,
    ]),
  })
  .strict();

/** An answer, as the core receives it (validated). */
export type QuestionAnswer = z.output<typeof AnswerQuestionSchema>['answer'];
export type AnswerOf<K extends QuestionKind> = Extract<QuestionAnswer, { kind: K }>;

export const questionMethods = {
  /**
   * Answers a pending question; its `kind` must be the question's. A question answered, timed out or
   * withdrawn already refuses (`invalid_input`); answers failing their schema are field errors
   * (`editedArgs.…`, `content.…`, as the kind's dialog names its fields). Sampling takes two answers: approve, then send (or reject).
   */
  answerQuestion: method<typeof AnswerQuestionSchema, void>(AnswerQuestionSchema),
};

export interface QuestionEvents {
  questionAsked: Question;
  /** A pending question changed (a sampling request moves from request to generating to review). */
  questionUpdated: Question;
  questionSettled: QuestionSettled;
}

/** What the renderer needs at (re)connect: every pending question, oldest first. */
export type QuestionsSnapshot = Question[];
