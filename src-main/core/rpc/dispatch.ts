import {
  createHostApi,
  HOST_METHODS,
  HostCallError,
  callSizeError,
  isHostMethodName,
  type CallResult,
  type HostApi,
  type HostError,
  type HostHandlers,
} from '@contract';

/** Any failure as the one error shape: ours as thrown, SQLite's as `storage`, anything else as `internal`. */
export function toHostError(error: unknown): HostError {
  if (error instanceof HostCallError) return error.toHostError();
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && code.startsWith('SQLITE_')) {
    return { code: 'storage', message: `The database refused the change: ${(error as Error).message}` };
  }
  return { code: 'internal', message: error instanceof Error ? error.message : String(error) };
}

/**
 * Runs one call from any transport: checks the method exists, validates the input with the method's
 * zod schema, runs the handler, and turns every failure into a `HostError`. Never throws, so one bad
 * frame can never take a bridge down.
 */
export async function dispatchCall(handlers: HostHandlers, method: unknown, input: unknown): Promise<CallResult> {
  if (!isHostMethodName(method)) {
    return { ok: false, error: { code: 'unknown_method', message: `Unknown method: ${String(method).slice(0, 100)}` } };
  }
  const parsed = HOST_METHODS[method].input.safeParse(input);
  if (!parsed.success) {
    return {
      ok: false,
      error: {
        code: 'invalid_input',
        message: `Invalid input for ${method}: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(input)'}: ${i.message}`).join('; ')}`,
        data: parsed.error.issues.map((i) => ({ path: i.path.map((p) => (typeof p === 'number' ? p : String(p))), message: i.message })),
      },
    };
  }
  try {
    const handler = handlers[method] as (value: unknown) => Promise<unknown>;
    return { ok: true, value: await handler(parsed.data) };
  } catch (error) {
    return { ok: false, error: toHostError(error) };
  }
}

/**
 * The typed API over `handlers`, each call taking the path every bridge takes (`dispatchCall`:
 * validated by the contract, failures as `HostCallError`). For whatever calls the host in-process as a
 * renderer would: tests, benchmarks, the conformance driver.
 */
export function inProcessApi(handlers: HostHandlers): HostApi {
  return createHostApi((method, input) => dispatchCall(handlers, method, input));
}

/** Rejects a raw frame larger than the host accepts, before parsing it (the answer names the limit). */
export function checkCallSize(byteLength: number): HostError | undefined {
  return callSizeError(byteLength);
}
