/**
 * Who asked for a request, carried to the Protocol log: a symbol-keyed tag on the request's params.
 * The SDK keeps the params object's own properties (symbols included) up to our transport's `send`,
 * where the wire tap sees the tag; JSON never serializes a symbol key, so the server never does.
 * That is SDK behaviour (it copies params with a spread), hence this folder: sdk-internals.test.ts
 * fails by name when the tag no longer reaches the transport.
 */
import type { JSONRPCMessage } from '@modelcontextprotocol/client';

const INITIATOR = Symbol.for('patchbay.request-initiator');

/** `params` tagged with `initiator` (unchanged when there is none). */
export function withInitiator<T extends object>(params: T, initiator: string | undefined): T {
  if (initiator) Object.defineProperty(params, INITIATOR, { value: initiator, enumerable: true });
  return params;
}

/** The initiator a request was tagged with, if any. */
export function initiatorOf(message: JSONRPCMessage): string | undefined {
  const params = (message as { params?: Record<symbol, unknown> }).params;
  const tag = params && typeof params === 'object' ? params[INITIATOR] : undefined;
  return typeof tag === 'string' ? tag : undefined;
}
