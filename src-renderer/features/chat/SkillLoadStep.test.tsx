import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { SKILL_TOOL_NAME } from '@contract';
import type { ToolResultBlock, ToolUseBlock } from '@contract';
import { SkillLoadStep } from './SkillLoadStep';

afterEach(cleanup);

const call = (input: Record<string, unknown>): ToolUseBlock => ({
  type: 'tool_use',
  id: 'tu1',
  name: SKILL_TOOL_NAME,
  input,
  serverId: '',
  serverName: '',
  toolName: '',
});
const result = (text: string, extra: Partial<ToolResultBlock> = {}): ToolResultBlock => ({
  type: 'tool_result',
  toolUseId: 'tu1',
  content: [{ type: 'text', text }],
  isError: false,
  outcome: 'done',
  ...extra,
});

describe('SkillLoadStep', () => {
  it('says "Loaded skill: NAME" and where from, opening to what the model got', () => {
    const answer = '[Patchbay loaded the skill "pdf-processing" from the MCP server "Docs".]\n\n# PDF processing';
    render(
      <SkillLoadStep
        call={call({ skill: 'docs/pdf-processing' })}
        result={result(answer, {
          skillLoad: { key: 'server:d:skill://pdf-processing/SKILL.md', name: 'pdf-processing', file: 'SKILL.md', serverName: 'Docs' },
        })}
      />,
    );
    const summary = screen.getByText('Loaded skill: pdf-processing');
    expect(summary.textContent).toBe('Loaded skill: pdf-processing · from Docs');
    fireEvent.click(summary);
    expect(screen.getByRole('region', { name: 'What the model got from pdf-processing' }).textContent).toBe(answer);
  });

  it('a file of a local skill, a load in progress, and a refusal in words', () => {
    const { rerender } = render(<SkillLoadStep call={call({ skill: 'local/notes', file: 'a.md' })} />);
    expect(screen.getByText('Reading a.md of skill local/notes…')).toBeTruthy();
    rerender(
      <SkillLoadStep
        call={call({ skill: 'local/notes', file: 'a.md' })}
        result={result('text', { skillLoad: { key: 'local:notes', name: 'notes', file: 'a.md' } })}
      />,
    );
    expect(screen.getByText('Read a.md of skill notes').textContent).toBe('Read a.md of skill notes · from your skills folder');
    rerender(
      <SkillLoadStep
        call={call({ skill: 'docs/tampered' })}
        result={result('Docs served “tampered” with a different digest: refused.', { isError: true, outcome: 'error' })}
      />,
    );
    expect(screen.getByText('Skill not loaded: Docs served “tampered” with a different digest: refused.')).toBeTruthy();
  });
});
