import { memo } from 'react';
import { SKILL_TOOL_NAME, TOOL_SEARCH_TOOL_NAME, type ChatMessage, type ToolResultBlock } from '@contract';
import { CopyButton } from '../../ui/CopyButton';
import { TimelineButton } from '../telemetry/TimelineButton';
import { LongAnswer } from './LongAnswer';
import { PromptMarker, ResourceBlockView } from './ContextBlocks';
import { ToolCallCard } from './ToolCallCard';
import { SkillLoadStep } from './SkillLoadStep';
import { ToolSearchStep } from './ToolSearchStep';

export interface MessageViewProps {
  message: ChatMessage;
  /** Results of this message's tool calls (from the next message), by call id. */
  results: ReadonlyMap<string, ToolResultBlock>;
  turnRunning: boolean;
  /** Who wrote an answer: "Claude", or the model of another provider. */
  author?: string;
  /** Said on hover: provider › model. */
  authorDetail?: string;
}

/** One message: who wrote it, its text as markdown, its images, and its tool calls as cards. */
export const MessageView = memo(function MessageView({
  message,
  results,
  turnRunning,
  author: model = 'Claude',
  authorDetail,
}: MessageViewProps) {
  const mine = message.role === 'user';
  // A message a chosen prompt wrote is the prompt's, whichever role it has.
  const prompt = message.content.find((b) => b.type === 'prompt');
  const author = prompt ? `Prompt ${prompt.name}` : mine ? 'You' : model;
  return (
    <article
      className={`message message-${message.role}${prompt ? ' message-prompt' : ''}`}
      data-seq={message.seq}
      data-status={message.status}
      aria-label={author}
    >
      <div className="message-head">
        <div className="message-author" title={mine || prompt ? undefined : authorDetail}>
          {author}
        </div>
        {message.status !== 'streaming' && message.content.some((b) => b.type === 'text' && b.text.trim() !== '') && (
          <CopyButton label="Copy message" text={() => messageText(message)} />
        )}
        {!mine && !prompt && message.status !== 'streaming' && (
          <TimelineButton target={{ conversationId: message.conversationId, messageId: message.id }} />
        )}
      </div>
      {message.content.map((block, i) => {
        switch (block.type) {
          case 'text':
            return mine || prompt ? (
              <p key={i} className="message-plain">
                {block.text}
              </p>
            ) : (
              <LongAnswer key={i} text={block.text} streaming={message.status === 'streaming'} />
            );
          case 'image':
            return <img key={i} className="message-image" alt="Attached image" src={`data:${block.mediaType};base64,${block.data}`} />;
          case 'resource':
            return <ResourceBlockView key={i} block={block} />;
          case 'prompt':
            return <PromptMarker key={i} block={block} role={message.role} />;
          case 'tool_use': {
            const result = results.get(block.id);
            // The host's own tool search (no server): a small step, not a tool card.
            if (block.name === TOOL_SEARCH_TOOL_NAME && !block.serverId)
              return <ToolSearchStep key={block.id} call={block} result={result} />;
            // The host's own skill tool: "Loaded skill: NAME", a line like the search's.
            if (block.name === SKILL_TOOL_NAME && !block.serverId) return <SkillLoadStep key={block.id} call={block} result={result} />;
            // The card follows its call's live record itself (the tool-call stream), so progress redraws only it.
            return (
              <ToolCallCard key={block.id} call={block} result={result} turnRunning={turnRunning} conversationId={message.conversationId} />
            );
          }
          default:
            return null;
        }
      })}
      {message.status === 'streaming' && <span className="message-streaming" aria-label="Writing…" />}
      {message.status === 'interrupted' && (
        <p className="message-note muted">Interrupted — this answer was cut short; what was written is kept.</p>
      )}
    </article>
  );
});

/** A message's words as written (Markdown source for answers), its text blocks separated by a blank line. */
export function messageText(message: ChatMessage): string {
  return message.content.flatMap((block) => (block.type === 'text' && block.text.trim() !== '' ? [block.text.trim()] : [])).join('\n\n');
}
