import type { AttachmentView, PromptResultView } from '@contract';
import { PromptMessages } from '../../prompts/PromptMessages';
import { VisibleText } from '../../../ui/VisibleText';

export interface ContextChipsProps {
  attachments: AttachmentView[];
  prompt?: PromptResultView;
  used: number;
  budget: number;
  blocked?: string;
  onRemove(attachmentId: string): void;
  onDropPrompt(): void;
}

const KIND: Record<AttachmentView['kind'], string> = { text: 'text', image: 'image', binary: 'described only' };

/**
 * Characters as people read a budget: "42 KB" (thousands of characters), "812 characters". Not a
 * byte size (`formatBytes`): budgets are set in thousands of characters. Never wraps before its unit.
 */
export function formatChars(n: number): string {
  if (n < 1000) return `${n}\u00a0character${n === 1 ? '' : 's'}`;
  return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}\u00a0KB`;
}

/**
 * What goes with the message besides its text, above the message box: the chosen prompt (its messages
 * on demand) and each attachment as a removable chip, with the budget they use ("Attachments: 42 KB
 * of 200 KB") — visible before anything is sent.
 */
export function ContextChips({ attachments, prompt, used, budget, blocked, onRemove, onDropPrompt }: ContextChipsProps) {
  if (attachments.length === 0 && !prompt) return null;
  return (
    <div className="context-chips" aria-label="Attached to this message" role="group">
      {prompt && (
        <div className="context-prompt">
          <span className="chip">
            Prompt <strong>{prompt.name}</strong> · {prompt.serverName} · {prompt.messages.length} message
            {prompt.messages.length === 1 ? '' : 's'}
            <button type="button" className="chip-remove" aria-label={`Remove prompt ${prompt.name}`} onClick={onDropPrompt}>
              ×
            </button>
          </span>
          <details>
            <summary>Its messages (they go into the conversation before yours)</summary>
            <PromptMessages serverId={prompt.serverId} messages={prompt.messages} />
          </details>
        </div>
      )}
      {attachments.length > 0 && (
        <ul className="chip-list" aria-label="Attachments">
          {attachments.map((a) => (
            <li key={a.attachmentId} className="chip" data-problem={a.problem ? 'true' : undefined} title={a.uri}>
              <strong>{a.name}</strong>
              <span className="chip-meta">
                {' '}
                · {a.serverName} · {KIND[a.kind]}
                {a.chars > 0 ? ` · ${formatChars(a.chars)}` : ''}
              </span>
              {a.flags && a.flags.length > 0 && (
                <span className="chip-flag" title={a.flags.map((flag) => flag.match).join('\n')}>
                  {' '}
                  · Flagged:{' '}
                  <q>
                    <VisibleText text={a.flags[0].match} />
                  </q>
                </span>
              )}
              <button type="button" className="chip-remove" aria-label={`Remove ${a.name}`} onClick={() => onRemove(a.attachmentId)}>
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      <p className={blocked ? 'field-error' : 'muted'} role="status">
        Attachments: {formatChars(used)} of {formatChars(budget)}
        {blocked ? ` — ${blocked}` : ''}
      </p>
    </div>
  );
}
