import type { ContentFlag, ContentFlagKind } from '@contract';
import { VisibleText } from './VisibleText';
import './content-flags.css';

/** What each kind of flag means, in words. */
const KIND_WORDS: Record<ContentFlagKind, string> = {
  instruction: 'Text aimed at the model',
  'hidden-unicode': 'Hidden characters',
  exfiltration: 'A way out for data',
  credential: 'A credential',
  stuffing: 'A stuffed description',
  classifier: 'Flagged by the classifier',
};

/**
 * What the content scanner flagged (a tool result, a server's instructions), each flag with the text
 * it matched — shown with hidden characters made visible, so the user sees why.
 */
export function ContentFlags({ flags, what, decision }: { flags: readonly ContentFlag[]; what: string; decision?: string }) {
  return (
    <div className="content-flags" role="note" aria-label="Flagged content">
      <p>
        <strong>Flagged:</strong> {what} {flags.length === 1 ? 'holds something' : 'hold things'} a server may use to steer the model.
        {decision && <> {decision}</>}
      </p>
      <ul>
        {flags.map((flag, index) => (
          <li key={index}>
            {KIND_WORDS[flag.kind]}
            {flag.note ? ` (${flag.note})` : ''}:{' '}
            <code>
              <VisibleText text={flag.match} />
            </code>
          </li>
        ))}
      </ul>
    </div>
  );
}
