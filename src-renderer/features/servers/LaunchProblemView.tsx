import type { LaunchFix, LaunchFixField, LaunchProblem } from '@contract';

export interface LaunchProblemViewProps {
  serverName: string;
  problem: LaunchProblem;
  /** Opens the server's form with the cursor in this field. */
  onEdit(field: LaunchFixField): void;
}

/** What the launch looked for and where, then the ways forward — each one something to do. */
export function LaunchProblemView({ serverName, problem, onEdit }: LaunchProblemViewProps) {
  return (
    <section className="launch-problem" aria-label={`Why ${serverName} could not be launched`}>
      <dl className="facts">
        <dt>Command</dt>
        <dd>
          <code>{problem.command}</code>
        </dd>
        {problem.resolved && (
          <>
            <dt>Found</dt>
            <dd>
              <code>{problem.resolved}</code>
            </dd>
          </>
        )}
        {problem.cwd && (
          <>
            <dt>Working directory</dt>
            <dd>
              <code>{problem.cwd}</code>
            </dd>
          </>
        )}
      </dl>
      {problem.searched.length > 0 && (
        <details className="launch-searched">
          <summary>
            Searched {problem.searched.length} {problem.searched.length === 1 ? 'folder' : 'folders'} (PATH)
          </summary>
          <ol aria-label="Folders searched">
            {problem.searched.map((folder) => (
              <li key={folder}>
                <code>{folder}</code>
              </li>
            ))}
          </ol>
        </details>
      )}
      <h4>How to fix it</h4>
      <ul aria-label="How to fix it" className="launch-fixes">
        {problem.fixes.map((fix, i) => (
          <li key={i}>
            <FixItem fix={fix} onEdit={onEdit} />
          </li>
        ))}
      </ul>
    </section>
  );
}

function FixItem({ fix, onEdit }: { fix: LaunchFix; onEdit(field: LaunchFixField): void }) {
  switch (fix.kind) {
    case 'install':
      return (
        <>
          {fix.text}:{' '}
          <a href={fix.url} target="_blank" rel="noreferrer noopener">
            how to install {fix.tool}
          </a>
        </>
      );
    case 'edit':
      return (
        <button type="button" className="link" onClick={() => onEdit(fix.field)}>
          {fix.text}
        </button>
      );
    case 'hint':
      return <>{fix.text}</>;
  }
}
