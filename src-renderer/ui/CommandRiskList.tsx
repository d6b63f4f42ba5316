import { EyeOff, FileWarning, ShieldAlert, Syringe, TerminalSquare, TriangleAlert } from 'lucide-react';
import { useId } from 'react';
import type { CommandRisk, CommandRiskKind } from '@contract';
import { EscapedText, VisibleText } from './VisibleText';
import './visible-text.css';

const KINDS: Record<CommandRiskKind, { label: string; Icon: typeof TriangleAlert }> = {
  'runs-other-code': { label: 'Runs other code', Icon: TerminalSquare },
  'host-access': { label: 'Reaches your files', Icon: FileWarning },
  privileges: { label: 'Extra rights', Icon: ShieldAlert },
  'code-injection': { label: 'Loads other code', Icon: Syringe },
  'hidden-characters': { label: 'Hidden characters', Icon: EyeOff },
};

/**
 * What a command could do beyond running the server it names (`commandRisks`), as a warning list the
 * user reads before agreeing: an icon and words for each, never blocking — the decision stays theirs.
 */
export function CommandRiskList({ risks, title = 'Check before installing' }: { risks: readonly CommandRisk[]; title?: string }) {
  const id = useId();
  if (risks.length === 0) return null;
  return (
    <section className="risk-list warning" aria-labelledby={id} data-testid="command-risks">
      <h3 id={id}>
        <TriangleAlert aria-hidden="true" size={18} />
        {title}
      </h3>
      <ul aria-labelledby={id}>
        {risks.map((risk, index) => {
          const { label, Icon } = KINDS[risk.kind];
          return (
            <li key={index}>
              <Icon aria-hidden="true" size={16} />
              <span>
                <span className="risk-kind">{label}:</span> <VisibleText text={risk.message} />
                {risk.kind === 'hidden-characters' && (
                  <>
                    {' '}
                    <code>
                      <EscapedText text={risk.subject} />
                    </code>
                  </>
                )}
              </span>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
