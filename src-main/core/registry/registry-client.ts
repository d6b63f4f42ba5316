import { formatBytes, HostCallError } from '@contract';

/** Limits of one request to the registry. */
export interface RegistryFetchOptions {
  /** Give up after this long (default 15 s). */
  timeoutMs?: number;
  /** Largest response body read (default 4 MB): a page of 100 entries is far smaller. */
  maxBytes?: number;
  fetch?: typeof fetch;
}

const MAX_REDIRECTS = 3;

/**
 * GETs JSON from the registry the user configured, and only from it: redirects are followed only
 * within the same origin (a registry has no business sending Patchbay elsewhere), the body is read up
 * to a size limit, and the whole request has a time limit. Failures throw a `HostCallError` whose
 * message names the registry and the cause, for the Find servers dialog to show as it is.
 */
export async function fetchRegistryJson(url: URL, options: RegistryFetchOptions = {}): Promise<unknown> {
  const doFetch = options.fetch ?? fetch;
  const maxBytes = options.maxBytes ?? 4 * 1024 * 1024;
  const where = url.origin;
  const signal = AbortSignal.timeout(options.timeoutMs ?? 15_000);
  let current = url;
  try {
    for (let hop = 0; ; hop++) {
      const response = await doFetch(current, { headers: { accept: 'application/json' }, redirect: 'manual', signal });
      const location = response.status >= 300 && response.status < 400 ? response.headers.get('location') : null;
      if (location !== null) {
        await response.body?.cancel().catch(() => undefined);
        const next = new URL(location, current);
        if (next.origin !== url.origin)
          throw failure(where, `it redirected to another site (${next.origin}), which Patchbay does not follow`);
        if (hop >= MAX_REDIRECTS) throw failure(where, 'too many redirects');
        current = next;
        continue;
      }
      if (!response.ok) {
        await response.body?.cancel().catch(() => undefined);
        throw failure(where, `it answered ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`);
      }
      const body = await readLimited(response, maxBytes, where);
      try {
        return JSON.parse(body);
      } catch {
        throw failure(where, 'its answer is not JSON (is the Registry URL right?)');
      }
    }
  } catch (error) {
    if (error instanceof HostCallError) throw error;
    const name = (error as Error).name;
    if (name === 'TimeoutError' || name === 'AbortError') throw failure(where, 'it did not answer in time');
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    throw failure(where, `it could not be reached (${cause?.code ?? cause?.message ?? (error as Error).message})`);
  }
}

async function readLimited(response: Response, maxBytes: number, where: string): Promise<string> {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw failure(where, `its answer is larger than ${formatBytes(maxBytes)}`);
  }
  const reader = response.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw failure(where, `its answer is larger than ${formatBytes(maxBytes)}`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function failure(where: string, cause: string): HostCallError {
  return new HostCallError('internal', `The registry at ${where} failed: ${cause}. The rest of Patchbay is unaffected.`);
}
