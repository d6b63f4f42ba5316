import type { ResourceReadView } from '../../../src-preload/contract';
import { formatElapsed } from '../tools/result/format';
import { ResourceContents } from './ResourceContents';

/** A finished read: when, how long it took, and every content item. */
export function ReadResult({ read }: { read: ResourceReadView }) {
  return (
    <section className="read-result" aria-label={`Contents of ${read.uri}`}>
      <p className="muted">
        Read from {read.serverName} at {new Date(read.readAt).toLocaleTimeString()} in {formatElapsed(read.durationMs)}.
      </p>
      <ResourceContents read={read} />
    </section>
  );
}
