import { z } from 'zod';

/** Declares a method: the zod schema validating its input in main, and (phantom) its output type. */
export function method<In extends z.ZodType, Out>(input: In): { input: In; output?: Out } {
  return { input };
}

/** The input schema of a method that takes no argument. */
export const NoInput = z.undefined();
