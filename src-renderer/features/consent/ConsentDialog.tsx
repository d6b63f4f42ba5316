import { useId, useState } from 'react';
import type { ConsentDecision, ConsentRequestView, JsonObject } from '@contract';
import { issuesOf, messageOf } from '../../ui/call-errors';
import { Modal } from '../../ui/Modal';
import { AnnotationHints } from '../tools/AnnotationHints';
import { DefinitionDiff } from './DefinitionDiff';
import './consent.css';

export interface ConsentDialogProps {
  request: ConsentRequestView;
  /** 1-based place of this request in the queue, and how many wait. */
  position: number;
  count: number;
  /** Resolves once the host took the answer; a rejection (e.g. edited arguments failing the schema) is shown. */
  onDecide(decision: ConsentDecision, editedArgs?: JsonObject): Promise<unknown>;
}

const pretty = (args: JsonObject) => JSON.stringify(args, null, 2);

/**
 * "Allow <server> to run <tool>?": a model-initiated call waits for the user. Shows who asks for
 * what (server, tool, description, the server's unverified hints, the arguments — editable), what
 * changed if an earlier approval was suspended, and the three answers. Closing it any other way is
 * Deny: when in doubt, nothing runs.
 */
export function ConsentDialog({ request, position, count, onDecide }: ConsentDialogProps) {
  const argsId = useId();
  const [text, setText] = useState(() => pretty(request.args));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const decide = async (decision: ConsentDecision) => {
    let edited: JsonObject | undefined;
    if (decision !== 'deny' && text !== pretty(request.args)) {
      try {
        const parsed: unknown = JSON.parse(text);
        if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('the arguments must be a JSON object');
        edited = parsed as JsonObject;
      } catch (failure) {
        setError(`Not valid JSON: ${messageOf(failure)}`);
        return;
      }
    }
    setBusy(true);
    setError(null);
    try {
      await onDecide(decision, edited);
    } catch (failure) {
      const issues = issuesOf(failure).filter((issue) => issue.path[0] === 'editedArgs');
      setError(
        issues.length ? issues.map((i) => `${i.path.slice(1).join('.') || 'arguments'}: ${i.message}`).join('; ') : messageOf(failure),
      );
      setBusy(false);
    }
  };

  return (
    <Modal
      open
      onOpenChange={(open) => !open && !busy && void decide('deny')}
      title={
        request.origin === 'app'
          ? `Allow the app of ${request.serverName} to run ${request.tool}?`
          : `Allow ${request.serverName} to run ${request.tool}?`
      }
      className="modal-wide tool-consent"
      description={
        <>
          {request.origin === 'app'
            ? `The app of ${request.serverName} wants to run a tool of its server (your standing decisions apply as they do to the model). `
            : 'The model wants to run a tool. '}
          Nothing runs until you allow it.{' '}
          <span className="consent-count">
            Request {position} of {count}
          </span>
        </>
      }
    >
      {request.reason === 'changed' && (
        <div className="consent-changed" role="note">
          <strong>This tool changed since you allowed it.</strong> Your earlier approval is suspended until you decide again.
          {request.diff && <DefinitionDiff lines={request.diff} />}
        </div>
      )}
      {request.risk && (
        <p className="consent-changed consent-risk" role="note">
          <strong>Asked again because of what this conversation holds.</strong> {request.risk}
        </p>
      )}
      <dl className="facts consent-facts">
        {request.rule && (
          <>
            <dt>Rule</dt>
            <dd className="consent-rule">{request.rule}</dd>
          </>
        )}
        <dt>Server</dt>
        <dd>{request.serverName}</dd>
        <dt>Tool</dt>
        <dd>
          <code>{request.tool}</code>
          {request.title && ` — ${request.title}`}
        </dd>
        <dt>Description</dt>
        <dd>{request.description ?? <span className="muted">None given</span>}</dd>
      </dl>
      <AnnotationHints hints={request.annotations} />
      <div className="field">
        <label htmlFor={argsId}>Arguments</label>
        <textarea
          id={argsId}
          className="consent-args"
          rows={Math.min(14, Math.max(3, text.split('\n').length))}
          spellCheck={false}
          value={text}
          disabled={busy}
          aria-invalid={error ? true : undefined}
          aria-describedby={`${argsId}-note`}
          onChange={(e) => setText(e.target.value)}
        />
        <p id={`${argsId}-note`} className={error ? 'field-error' : 'hint'} role={error ? 'alert' : undefined}>
          {error ?? 'You can edit them before allowing; they are checked against the tool’s schema.'}
        </p>
      </div>
      <p className="hint">Not answered by {new Date(request.expiresAt).toLocaleTimeString()}, it is denied.</p>
      <div className="actions">
        <button type="button" className="primary" disabled={busy} onClick={() => void decide('allow_once')}>
          Allow once
        </button>
        <button type="button" disabled={busy} onClick={() => void decide('always_allow')}>
          Always allow
        </button>
        <button type="button" className="danger" disabled={busy} onClick={() => void decide('deny')}>
          Deny
        </button>
      </div>
    </Modal>
  );
}
