import { useState } from 'react';
import { RISKY_HINT_WORDS, riskyHintsOf, type RiskyHint, type ToolView } from '@contract';
import { messageOf } from '../../ui/call-errors';
import { Modal } from '../../ui/Modal';
import { Alert } from '../../ui/Alert';

/** What the hints claim, after "may" in the dialog's warning. */
const CLAIM_WORDS: Record<RiskyHint, string> = {
  destructive: 'destroy or overwrite data',
  unmarked: 'destroy or overwrite data',
  writes: 'change data',
  'open-world': 'reach outside systems',
};

const CLAIM_ORDER: readonly RiskyHint[] = ['destructive', 'unmarked', 'writes', 'open-world'];

/** The tools whose hints deserve a confirmation before the whole server is trusted, with what they say. */
export function hintedTools(tools: readonly ToolView[]): { name: string; hints: RiskyHint[] }[] {
  return tools.map((tool) => ({ name: tool.name, hints: riskyHintsOf(tool.annotations) })).filter((tool) => tool.hints.length > 0);
}

export interface TrustServerDialogProps {
  serverName: string;
  /** The hinted tools, as `hintedTools` found them (at least one). */
  hinted: { name: string; hints: RiskyHint[] }[];
  /** Trusts the server, confirming these tools by name; rejects with the host's reason. */
  onConfirm(confirmedTools: string[]): Promise<unknown>;
  onCancel(): void;
}

/**
 * "Trust all tools of this server" when some of them may do damage or reach outside systems: names
 * each one with what its hints say (or that it has none) before anything is trusted. The hints are the
 * server's own claims (unverified), which is exactly why they are shown rather than relied on.
 */
export function TrustServerDialog({ serverName, hinted, onConfirm, onCancel }: TrustServerDialogProps) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const confirm = async () => {
    setBusy(true);
    setError(null);
    try {
      await onConfirm(hinted.map((tool) => tool.name));
    } catch (failure) {
      setError(messageOf(failure));
      setBusy(false);
    }
  };
  const count = hinted.length;
  // The warning says what the listed tools claim: "may do damage" only when one says it is destructive.
  // The worst first, each once ("unmarked" claims what "destructive" does).
  const present = new Set(hinted.flatMap((tool) => tool.hints));
  const claims = [...new Set(CLAIM_ORDER.filter((hint) => present.has(hint)).map((hint) => CLAIM_WORDS[hint]))];
  const claim = `may ${claims.length > 1 ? `${claims.slice(0, -1).join(', ')} or ${claims[claims.length - 1]}` : claims[0]}`;
  // "Say" only when every listed tool says so itself: a tool without hints is listed by the spec's defaults.
  const said = hinted.every((tool) => !tool.hints.includes('unmarked'));
  const they = count === 1 ? `this one, which${said ? ' says it' : ''}` : `these ${count}, which${said ? ' say they' : ''}`;
  return (
    <Modal
      open
      role="alertdialog"
      onOpenChange={(open) => !open && !busy && onCancel()}
      title={`Trust all tools of ${serverName}?`}
      description={
        <>
          The model will run every tool of {serverName} without asking, including {they} {claim}. These are hints from the server, not
          verified.
        </>
      }
    >
      <ul className="trust-hinted" aria-label="Tools hinted as risky">
        {hinted.map((tool) => (
          <li key={tool.name}>
            <code>{tool.name}</code> — {tool.hints.map((hint) => RISKY_HINT_WORDS[hint]).join(', ')}
          </li>
        ))}
      </ul>
      <Alert message={error} tone="field-error" />
      <div className="actions">
        <button type="button" className="danger" onClick={() => void confirm()} disabled={busy}>
          Trust all tools
        </button>
        <button type="button" className="secondary" onClick={onCancel} disabled={busy} data-autofocus>
          Cancel
        </button>
      </div>
    </Modal>
  );
}
