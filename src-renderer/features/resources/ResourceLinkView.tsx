import type { ReactNode } from 'react';
import type { ResourceLinkFields } from '@contract';

/**
 * A resource link in a tool's result or a prompt, the same wherever it is shown: what it is, its
 * title (or name), URI and media type, the `Open` control the caller gives (it knows the server), and
 * its description.
 */
export function ResourceLinkView({ link, open }: { link: ResourceLinkFields; open?: ReactNode }) {
  return (
    <div className="result-resource">
      <span className="result-kind">Resource link</span> <strong>{link.title ?? link.name}</strong> <code>{link.uri}</code>
      {link.mimeType && <span className="muted"> · {link.mimeType}</span>} {open}
      {link.description && <p className="hint">{link.description}</p>}
    </div>
  );
}
