import { z } from 'zod';

/** Declares a method: the zod schema validating its input in main, and (phantom) its output type. */
export function method<In extends z.ZodType, Out>(input: In): { input: In; output?: Out } {
  return { input };
}

/** The input schema of a method that takes no argument. */
export const NoInput = z.undefined();

/** An id the host made (a server, root, conversation, request, call…): what every method taking one accepts. */
export const IdString = z.string().min(1).max(100);

/** The input of a method that takes one thing by its id. */
export const ByIdSchema = z.object({ id: IdString });
