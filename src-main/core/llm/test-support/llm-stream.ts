import { expect } from 'vitest';
import { LlmError } from '../llm-errors';
import type { LlmStreamEvent } from '../llm-types';

/** Every event of a provider's stream. */
export async function collect(stream: AsyncIterable<LlmStreamEvent>): Promise<LlmStreamEvent[]> {
  const events: LlmStreamEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

/** The `LlmError` a promise rejects with (fails the test when it resolves or rejects with anything else). */
export async function failure(promise: Promise<unknown>): Promise<LlmError> {
  const error = await promise.then(
    () => expect.fail('expected a failure'),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(LlmError);
  return error as LlmError;
}
