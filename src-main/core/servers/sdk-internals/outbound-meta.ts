/**
 * Adds keys to the `_meta` envelope the SDK's client attaches to every request of a modern-era
 * (2026-07-28) connection. The SDK builds that envelope in one overridable, protected method
 * (`_outboundMetaEnvelope`) and attaches it only on a modern-era connection, so wrapping it on one
 * instance changes that server's modern traffic and nothing else (legacy traffic is unchanged).
 * sdk-internals.test.ts fails by name when the SDK drops the method.
 */
import type { Client } from '@modelcontextprotocol/client';

type EnvelopeSeam = { _outboundMetaEnvelope?: (this: Client) => Readonly<Record<string, unknown>> | undefined };

/** Merges `extra()` into each request's envelope (when there is one); false when the SDK has no such seam. */
export function extendOutboundMeta(client: Client, extra: () => Record<string, unknown> | undefined): boolean {
  const seam = client as unknown as EnvelopeSeam;
  const base = seam._outboundMetaEnvelope;
  if (typeof base !== 'function') return false;
  seam._outboundMetaEnvelope = function (this: Client) {
    const envelope = base.call(this);
    const added = extra();
    return envelope && added ? { ...envelope, ...added } : envelope;
  };
  return true;
}
