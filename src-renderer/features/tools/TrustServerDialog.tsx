import { useState } from 'react';
import { riskyHintsOf, type RiskyHint, type ToolView } from '../../../src-preload/contract';
import { messageOf } from '../../ui/call-errors';
import { Modal } from '../../ui/Modal';

/** How each hint reads next to a tool's name. */
export const RISKY_HINT_WORDS: Record<RiskyHint, string> = {
  destructive: 'may destroy or overwrite data',
  'open-world': 'reaches outside systems',
};

/** What the hints claim, after "may" in the dialog's warning. */
const CLAIM_WORDS: Record<RiskyHint, string> = {
  destructive: 'destroy or overwrite data',
  'open-world': 'reach outside systems',
};

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
 * "Trust all tools of this server" when some of them say they may destroy data or reach outside
 * systems: names each one with what it says before anything is trusted. The hints are the server's
 * own claims (unverified), which is exactly why they are shown rather than relied on.
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
  const claims = [...new Set(hinted.flatMap((tool) => tool.hints))];
  const claim = `may ${claims.map((hint) => CLAIM_WORDS[hint]).join(' or ')}`;
  const they = count === 1 ? 'this one, which says it' : `these ${count}, which say they`;
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
      {error && (
        <p role="alert" className="field-error">
          {error}
        </p>
      )}
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
