import { useId, useState } from 'react';
import type { SamplingContentView, SamplingPolicy, SamplingRequestView } from '@contract';
import { messageOf } from '../../ui/call-errors';
import { Modal } from '../../ui/Modal';
import { groupModels, modelValue, parseModelValue } from '../providers/model-options';
import { SamplingPolicyForm } from './SamplingPolicyForm';
import './sampling.css';
import { Select } from '../../ui/Select';
import { Alert } from '../../ui/Alert';

export interface SamplingDialogProps {
  request: SamplingRequestView;
  onApprove(input: {
    edits: { message: number; block: number; text: string }[];
    systemPrompt?: string;
    model: string;
    providerId: string;
  }): Promise<unknown>;
  onSend(text: string): Promise<unknown>;
  onReject(): Promise<unknown>;
  /** The server's policy, editable from here (absent: not shown). */
  policy?: SamplingPolicy;
  onSavePolicy?(policy: SamplingPolicy): Promise<unknown>;
}

const CONTEXT_NOTE: Record<string, string> = {
  none: 'None',
  thisServer: 'The server asked for context from itself. Patchbay includes none: only the messages shown here are sent.',
  allServers: 'The server asked for context from all servers. Patchbay includes none: only the messages shown here are sent.',
};

/**
 * "Sampling request": a server asks for a model answer. Step 1 shows the whole request (editable
 * messages and system prompt, the model choice and why); Approve generates with the real provider.
 * Step 2 shows the response (editable) with the token use; Send response answers the server. Reject at
 * either step (and closing the dialog) answers with the spec's user-rejected error.
 */
export function SamplingDialog({ request, onApprove, onSend, onReject, policy, onSavePolicy }: SamplingDialogProps) {
  const baseId = useId();
  const [texts, setTexts] = useState<Record<string, string>>({});
  const [system, setSystem] = useState(request.systemPrompt ?? '');
  const [choice, setChoice] = useState({ providerId: request.providerId, model: request.model });
  const [answer, setAnswer] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const reviewing = request.stage === 'review' && request.response;
  const generating = request.stage === 'generating';

  const act = async (fn: () => Promise<unknown>) => {
    setBusy(true);
    setError(null);
    try {
      await fn();
    } catch (failure) {
      setError(messageOf(failure));
    } finally {
      setBusy(false);
    }
  };
  const approve = () => {
    const edits = Object.entries(texts).map(([key, text]) => {
      const [message, block] = key.split('.').map(Number);
      return { message, block, text };
    });
    return act(() =>
      onApprove({
        edits,
        ...(system !== (request.systemPrompt ?? '') ? { systemPrompt: system } : {}),
        model: choice.model,
        providerId: choice.providerId,
      }),
    );
  };

  return (
    <Modal
      open
      onOpenChange={(open) => !open && !busy && void act(onReject)}
      title="Sampling request"
      className="modal-wide sampling-dialog"
      description={
        <>
          Server <strong>{request.serverName}</strong> asks for a model answer
          {request.toolCall && (
            <>
              {' '}
              during its tool call <code>{request.toolCall.tool}</code>
            </>
          )}
          . Nothing is sent to the model or the server until you approve.
        </>
      }
    >
      {request.autoApproved && (
        <p className="hint">This server’s requests are approved automatically; review the response before it is sent.</p>
      )}
      <dl className="facts">
        <dt>Max tokens</dt>
        <dd>{request.maxTokens}</dd>
        {request.temperature !== undefined && (
          <>
            <dt>Temperature</dt>
            <dd>{request.temperature}</dd>
          </>
        )}
        {request.stopSequences?.length ? (
          <>
            <dt>Stop sequences</dt>
            <dd>{request.stopSequences.map((s) => JSON.stringify(s)).join(', ')}</dd>
          </>
        ) : null}
        <dt>Context</dt>
        <dd>{CONTEXT_NOTE[request.includeContext ?? 'none']}</dd>
        {request.modelPreferences && (
          <>
            <dt>Model preferences</dt>
            <dd>
              <code>{JSON.stringify(request.modelPreferences)}</code>
            </dd>
          </>
        )}
      </dl>
      {!reviewing && (
        <>
          <div className="field">
            <label htmlFor={`${baseId}-system`}>System prompt</label>
            <textarea
              id={`${baseId}-system`}
              rows={2}
              value={system}
              disabled={busy || generating}
              onChange={(e) => setSystem(e.target.value)}
            />
          </div>
          {request.messages.map((message, mi) => (
            <fieldset key={mi} className="sampling-message">
              <legend>
                {message.role === 'user' ? 'User' : 'Assistant'} message {mi + 1}
              </legend>
              {message.content.map((block, bi) => (
                <Block
                  key={bi}
                  id={`${baseId}-${mi}-${bi}`}
                  block={block}
                  label={`Message ${mi + 1} text`}
                  disabled={busy || generating}
                  value={texts[`${mi}.${bi}`]}
                  onChange={(text) => setTexts((t) => ({ ...t, [`${mi}.${bi}`]: text }))}
                />
              ))}
            </fieldset>
          ))}
          <div className="field">
            <label htmlFor={`${baseId}-model`}>Model</label>
            <Select
              id={`${baseId}-model`}
              value={modelValue(choice)}
              disabled={busy || generating}
              onChange={(next) => setChoice(parseModelValue(next) ?? choice)}
              groups={groupModels(request.models, [{ providerId: request.providerId, model: request.model }])}
            />
            <p className="hint">Preselected: {request.modelReason}</p>
          </div>
        </>
      )}
      {generating && <p role="status">Generating with {request.model}…</p>}
      <Alert message={request.error} prefix="Generation failed:" tone="field-error" />
      {reviewing && request.response && (
        <div className="field">
          <label htmlFor={`${baseId}-response`}>Response</label>
          <textarea
            id={`${baseId}-response`}
            rows={6}
            value={answer ?? request.response.text}
            disabled={busy}
            onChange={(e) => setAnswer(e.target.value)}
          />
          <p className="hint">
            {request.response.model} · {usageText(request.response.usage)}
            {request.response.stopReason ? ` · stopped: ${request.response.stopReason}` : ''}
          </p>
        </div>
      )}
      <Alert message={error} tone="field-error" />
      {policy && onSavePolicy && <SamplingPolicyForm serverName={request.serverName} policy={policy} onSave={onSavePolicy} />}
      <div className="actions">
        {reviewing ? (
          <button
            type="button"
            className="primary"
            disabled={busy}
            onClick={() => void act(() => onSend(answer ?? request.response?.text ?? ''))}
          >
            Send response
          </button>
        ) : (
          <button type="button" className="primary" disabled={busy || generating} onClick={() => void approve()}>
            Approve
          </button>
        )}
        <button type="button" className="danger" disabled={busy} onClick={() => void act(onReject)}>
          Reject
        </button>
      </div>
    </Modal>
  );
}

function Block({
  id,
  block,
  label,
  value,
  disabled,
  onChange,
}: {
  id: string;
  block: SamplingContentView;
  label: string;
  value?: string;
  disabled: boolean;
  onChange(text: string): void;
}) {
  if (block.type === 'text') {
    return (
      <div className="field">
        <label htmlFor={id}>{label}</label>
        <textarea id={id} rows={3} value={value ?? block.text} disabled={disabled} onChange={(e) => onChange(e.target.value)} />
      </div>
    );
  }
  if (block.type === 'image')
    return <img className="sampling-image" alt="Image sent with the request" src={`data:${block.mimeType};base64,${block.data}`} />;
  if (block.type === 'audio')
    return <audio controls aria-label="Audio sent with the request" src={`data:${block.mimeType};base64,${block.data}`} />;
  return <p className="hint">{block.summary}</p>;
}

/** Token counts, or "usage unknown" when the provider did not say (it reports zeros then, not the truth). */
export function usageText(usage: { inputTokens: number; outputTokens: number }): string {
  if (usage.inputTokens === 0 && usage.outputTokens === 0) return 'usage unknown';
  return `${usage.inputTokens} input tokens, ${usage.outputTokens} output tokens`;
}
