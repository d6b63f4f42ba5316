import type { StandingDecision } from '@contract';
import { RelativeTime } from '../../ui/RelativeTime';
import { useTrackedCalls } from '../../ui/use-tracked-calls';
import { Alert } from '../../ui/Alert';

const DECISIONS: Record<StandingDecision['decision'], string> = {
  allow: 'Always allow',
  deny: 'Always deny',
  ask: 'Always ask',
  trust: 'Trust all tools',
};

export interface StandingDecisionsProps {
  decisions: StandingDecision[];
  onRevoke(id: string): Promise<unknown>;
}

/** Every standing decision about model-initiated tool calls, each with its own Revoke. */
export function StandingDecisions({ decisions, onRevoke }: StandingDecisionsProps) {
  const calls = useTrackedCalls<string>();
  if (decisions.length === 0) return <p className="muted">No standing decisions: every tool call the model asks for needs your answer.</p>;
  return (
    <>
      <ul className="standing-decisions" aria-label="Standing decisions">
        {decisions.map((d) => {
          const what = `${d.serverName} › ${d.tool ?? 'all tools'}`;
          return (
            <li key={d.id} aria-label={what} data-state={d.state}>
              <span className="decision-what">
                <strong>{d.serverName}</strong> › {d.tool ? <code>{d.tool}</code> : 'all tools'}
              </span>
              <span className="decision-kind">{DECISIONS[d.decision]}</span>
              {d.state === 'suspended' && (
                <span className="decision-suspended">Suspended: the tool changed since, the next call asks again</span>
              )}
              <span className="muted">
                since <RelativeTime iso={d.since} />
              </span>
              <button
                type="button"
                className="danger"
                disabled={calls.isPending(d.id)}
                onClick={() => void calls.run(d.id, () => onRevoke(d.id))}
              >
                Revoke
              </button>
            </li>
          );
        })}
      </ul>
      <Alert message={calls.failure?.message} prefix="Could not revoke:" />
    </>
  );
}
