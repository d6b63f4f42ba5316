import { formatTokens } from '@contract';
import { useSkills } from './use-skills';

/** Skills named in the meter's breakdown at most (the largest first); the rest are counted. */
const SHOWN = 5;

/**
 * In the context meter's breakdown: what loading a skill would add to the conversation (its SKILL.md),
 * for the skills the model is offered, the costliest first.
 */
export function SkillLoadCosts() {
  const { list } = useSkills();
  const offered = (list?.skills ?? []).filter((s) => s.enabled && !s.problem).sort((a, b) => (b.loadTokens ?? 0) - (a.loadTokens ?? 0));
  if (offered.length === 0) return null;
  return (
    <>
      <h4 id="context-meter-skills">Loading a skill would add</h4>
      <ul aria-labelledby="context-meter-skills" className="context-meter-servers">
        {offered.slice(0, SHOWN).map((skill) => (
          <li key={skill.key}>
            <span className="context-meter-server">{skill.name}</span>
            <span>
              {skill.loadTokens === undefined ? 'not known until loaded' : `≈ ${formatTokens(skill.loadTokens)}`}
              <span className="muted"> · {skill.source.kind === 'local' ? 'local folder' : skill.source.serverName}</span>
            </span>
          </li>
        ))}
      </ul>
      {offered.length > SHOWN && <p className="muted">and {offered.length - SHOWN} more skills (Settings › Skills lists them all).</p>}
      <p className="hint">Skills’ names and descriptions go with every request; a skill’s SKILL.md only once the model loads it.</p>
    </>
  );
}
