import { useEffect } from 'react';
import type { ResourceReadView } from '@contract';
import { formatElapsed } from '../tools/result/format';
import { ResourceContents } from './ResourceContents';

/** A finished read: when, how long it took, and every content item. */
export function ReadResult({ read }: { read: ResourceReadView }) {
  // For the benchmark: mark when a read's preview is on screen.
  useEffect(() => {
    const frame = requestAnimationFrame(() => performance.mark('patchbay:read-painted', { detail: { readId: read.readId } }));
    return () => cancelAnimationFrame(frame);
  }, [read.readId]);
  return (
    <section className="read-result" aria-label={`Contents of ${read.uri}`}>
      <p className="muted">
        Read from {read.serverName} at {new Date(read.readAt).toLocaleTimeString()} in {formatElapsed(read.durationMs)}.
      </p>
      <ResourceContents read={read} />
    </section>
  );
}
