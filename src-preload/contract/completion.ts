import { z } from 'zod';
import { IdString, method } from './method';

/**
 * Completion (`completion/complete`): suggestions for a prompt argument or a resource template
 * variable as the user types, with the other fields' values as context. Servers without the
 * `completions` capability get none (the renderer then shows plain fields).
 */

/** What is being filled in: a prompt (by name) or a resource template (by its URI template). */
export const CompletionRefSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('prompt'), name: z.string().min(1).max(500) }).strict(),
  z.object({ type: z.literal('resource'), uri: z.string().min(1).max(8_192) }).strict(),
]);
export type CompletionRef = z.infer<typeof CompletionRefSchema>;

export interface CompletionView {
  /** At most 100, best first. */
  values: string[];
  /** How many exist in all, when the server says. */
  total?: number;
  hasMore?: boolean;
}

const CompleteSchema = z
  .object({
    serverId: IdString,
    ref: CompletionRefSchema,
    argument: z.object({ name: z.string().min(1).max(200), value: z.string().max(10_000) }).strict(),
    /** The other fields' values (`context.arguments`). */
    context: z.record(z.string().max(200), z.string().max(10_000)).default({}),
  })
  .strict();

export const completionMethods = {
  /**
   * Suggestions for one field. Bounded by a short timeout: a server that does not answer in time (or
   * at all) yields no suggestions, never an error that would get in the typing's way.
   */
  completeArgument: method<typeof CompleteSchema, CompletionView>(CompleteSchema),
};
