import { formatBytes, type PromptContentView, type PromptMessageView } from '@contract';
import { OpenResourceButton } from '../resources/OpenResource';
import { ResourceLinkView } from '../resources/ResourceLinkView';

/** What a prompt produced, message by message, before anything is used. */
export function PromptMessages({ serverId, messages }: { serverId: string; messages: PromptMessageView[] }) {
  if (messages.length === 0) return <p className="muted">The prompt produced no messages.</p>;
  return (
    <ol className="prompt-messages" aria-label="Prompt messages">
      {messages.map((message, i) => (
        <li key={i} className="prompt-message" data-role={message.role}>
          <div className="prompt-role">{message.role === 'user' ? 'User' : 'Assistant'}</div>
          <PromptContent serverId={serverId} content={message.content} />
        </li>
      ))}
    </ol>
  );
}

function PromptContent({ serverId, content }: { serverId: string; content: PromptContentView }) {
  switch (content.type) {
    case 'text':
      return (
        <p className="message-plain">
          {content.text}
          {content.truncated && <span className="muted"> … ({formatBytes(content.truncated.total)} in all)</span>}
        </p>
      );
    case 'image':
      return content.data ? (
        <img className="resource-image" src={`data:${content.mimeType};base64,${content.data}`} alt={`Image (${content.mimeType})`} />
      ) : (
        <p className="muted">
          An image ({content.mimeType}, {formatBytes(content.bytes)}), too large to preview.
        </p>
      );
    case 'audio':
      return content.data ? (
        <audio controls src={`data:${content.mimeType};base64,${content.data}`} aria-label={`Audio (${content.mimeType})`} />
      ) : (
        <p className="muted">
          Audio ({content.mimeType}, {formatBytes(content.bytes)}), too large to preview.
        </p>
      );
    case 'resource':
      return (
        <div className="result-resource">
          <span className="result-kind">Embedded resource</span> <code>{content.uri}</code>
          {content.mimeType && <span className="muted"> · {content.mimeType}</span>}{' '}
          <OpenResourceButton serverId={serverId} uri={content.uri} name={content.uri} />
          {content.text !== undefined && <pre className="result-text">{content.text}</pre>}
          {content.blobBytes !== undefined && <p className="muted">Binary content, {formatBytes(content.blobBytes)}</p>}
        </div>
      );
    case 'resource_link':
      return <ResourceLinkView link={content} open={<OpenResourceButton serverId={serverId} uri={content.uri} name={content.name} />} />;
    case 'other':
      return <pre className="result-json">{content.json}</pre>;
  }
}
