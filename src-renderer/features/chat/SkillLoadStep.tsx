import type { ToolResultBlock, ToolUseBlock } from '@contract';
import '../skills/skills.css';

/**
 * The model loaded a skill (the host's `load_skill`): one line in the answer, "Loaded skill: NAME ·
 * from …", opening to what the model got. No card, like a tool search: the host answered it, nothing ran.
 */
export function SkillLoadStep({ call, result }: { call: ToolUseBlock; result?: ToolResultBlock }) {
  const asked = typeof call.input.skill === 'string' ? call.input.skill : '';
  const file = typeof call.input.file === 'string' && call.input.file !== '' ? call.input.file : undefined;
  if (!result) return <p className="tool-search-step muted">{file ? `Reading ${file} of skill ${asked}…` : `Loading skill: ${asked}…`}</p>;
  const text = result.content.find((part) => part.type === 'text')?.text ?? '';
  const loaded = result.skillLoad;
  if (result.isError || !loaded) return <p className="tool-search-step skill-load-refused">Skill not loaded: {text || 'no answer'}</p>;
  const from = loaded.serverName ? `from ${loaded.serverName}` : 'from your skills folder';
  return (
    <details className="tool-search-step skill-load-step muted">
      <summary>
        {loaded.file === 'SKILL.md' ? `Loaded skill: ${loaded.name}` : `Read ${loaded.file} of skill ${loaded.name}`}
        <span> · {from}</span>
      </summary>
      <pre className="skill-load-text" role="region" tabIndex={0} aria-label={`What the model got from ${loaded.name}`}>
        {text}
      </pre>
    </details>
  );
}
