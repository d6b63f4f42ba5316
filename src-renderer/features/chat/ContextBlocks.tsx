import { formatBytes, type ChatBlock, type MessageRole } from '@contract';
import { OpenResourceButton } from '../resources/OpenResource';
import { ContentFlags } from '../../ui/ContentFlags';

/** What the model was told of flagged text it got from an attachment or a prompt. */
const SENT_FLAGGED = 'The model got it, told to treat it as data.';

type ResourceBlock = Extract<ChatBlock, { type: 'resource' }>;
type PromptBlock = Extract<ChatBlock, { type: 'prompt' }>;

/** A resource that went to the model with a message: what it is, and (folded) exactly what was sent. */
export function ResourceBlockView({ block }: { block: ResourceBlock }) {
  const what = block.origin === 'prompt' ? 'From the prompt' : block.origin === 'app' ? 'From the app' : 'Attached';
  return (
    <div className="message-resource" aria-label={`${what}: ${block.name}`}>
      <span className="result-kind">{what}</span> <strong>{block.name}</strong> <code>{block.uri}</code>
      <span className="muted">
        {' '}
        · {block.serverName}
        {block.mimeType ? ` · ${block.mimeType}` : ''}
        {block.chars > 0 ? ` · ${formatBytes(block.chars)}` : ''}
      </span>{' '}
      <OpenResourceButton serverId={block.serverId} uri={block.uri} name={block.name} />
      {block.image && (
        <img
          className="message-image"
          alt={`Attached image ${block.name}`}
          src={`data:${block.image.mediaType};base64,${block.image.data}`}
        />
      )}
      {block.text !== undefined && (
        <details>
          <summary>What the model got</summary>
          <pre className="result-text">{block.text}</pre>
        </details>
      )}
      {block.note && <p className="muted">{block.note}</p>}
      {block.flags && block.flags.length > 0 && <ContentFlags flags={block.flags} what="This resource" decision={SENT_FLAGGED} />}
    </div>
  );
}

/** Where a message came from when a chosen prompt wrote it. */
export function PromptMarker({ block, role }: { block: PromptBlock; role: MessageRole }) {
  const args = Object.entries(block.arguments);
  return (
    <>
      <p className="message-prompt-note muted">
        {role === 'user' ? 'User' : 'Assistant'} message {block.part} of {block.of} from the prompt <strong>{block.name}</strong> of{' '}
        {block.serverName}
        {args.length > 0 && ` (${args.map(([k, v]) => `${k}: ${v}`).join(', ')})`}
      </p>
      {block.flags && block.flags.length > 0 && <ContentFlags flags={block.flags} what="This prompt’s messages" decision={SENT_FLAGGED} />}
    </>
  );
}
