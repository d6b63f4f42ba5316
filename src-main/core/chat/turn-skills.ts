/**
 * The skills of one turn: the `load_skill` host tool listing the skills offered to the model (enabled,
 * not refused, each under an id naming its origin), and the host's answer when the model calls it —
 * the skill's `SKILL.md` (with its file list) or one of its files, verified by the skills area and
 * marked as data. Like the search tool, it is answered by the host, with no consent: it only reads the
 * skill, and a skill runs nothing by itself.
 */
import type { ToolResultBlock, ToolUseBlock } from '@contract';
import { SKILL_TOOL_NAME } from '@contract';
import type { LlmTool } from '../llm/llm-types';
import type { AdvertisedSkill } from '../skills/skill-catalog';
import { parseSkillInput, skillAnswer, skillTool } from '../skills/skill-tool';
import type { ChatToolbox } from './chat-toolbox';

function errorResult(call: ToolUseBlock, text: string): ToolResultBlock {
  return { type: 'tool_result', toolUseId: call.id, content: [{ type: 'text', text }], isError: true, outcome: 'error' };
}

export class TurnSkills {
  /** The tool every request of the turn carries (undefined: no skill is offered). */
  readonly tool: LlmTool | undefined;
  private readonly byId: Map<string, AdvertisedSkill>;

  constructor(private readonly source: ChatToolbox['skills']) {
    const offered = source?.forModel() ?? [];
    this.byId = new Map(offered.map((skill) => [skill.id, skill]));
    this.tool = skillTool(offered);
  }

  /** A call the host answers itself: the skill tool, while skills are offered. */
  isCall(call: ToolUseBlock): boolean {
    return this.tool !== undefined && !call.serverId && call.name === SKILL_TOOL_NAME;
  }

  /**
   * The host's answer to a load call: the text marked as data, or why it was refused (an error result);
   * with the server it came from, for a server's skill (its text is then reviewed like a tool result).
   */
  async answer(
    call: ToolUseBlock,
    signal?: AbortSignal,
  ): Promise<{ block: ToolResultBlock; server?: { serverId: string; serverName: string } }> {
    const block = await this.load(call, signal);
    const skill = this.found(call);
    return skill?.origin.kind === 'server' && !block.isError ? { block, server: skill.origin } : { block };
  }

  private found(call: ToolUseBlock): AdvertisedSkill | undefined {
    const input = parseSkillInput(call.input);
    return 'error' in input ? undefined : (this.byId.get(input.skill) ?? this.uniqueByName(input.skill));
  }

  private async load(call: ToolUseBlock, signal?: AbortSignal): Promise<ToolResultBlock> {
    const input = parseSkillInput(call.input);
    if ('error' in input) return errorResult(call, input.error);
    // An id the model was not offered (or a name alone) is looked up by name only within one origin's list.
    const skill = this.byId.get(input.skill) ?? this.uniqueByName(input.skill);
    if (!skill || !this.source)
      return errorResult(call, `There is no skill "${input.skill}". Use one of the ids ${SKILL_TOOL_NAME} lists.`);
    try {
      const loaded = await this.source.load(skill, input.file, signal);
      return {
        type: 'tool_result',
        toolUseId: call.id,
        content: [{ type: 'text', text: skillAnswer(loaded) }],
        isError: false,
        outcome: 'done',
        // For the chat's "Loaded skill: NAME" line (the text above is the model's).
        skillLoad: {
          key: skill.key,
          name: skill.name,
          file: loaded.file,
          ...(skill.origin.kind === 'server' ? { serverName: skill.origin.serverName } : {}),
        },
      };
    } catch (error) {
      return errorResult(call, (error as Error).message);
    }
  }

  /** How many skills the model is offered this turn (the context meter names them). */
  get offered(): number {
    return this.byId.size;
  }

  /** A bare name matches only when exactly one offered skill has it (never a silent pick between origins). */
  private uniqueByName(name: string): AdvertisedSkill | undefined {
    const matches = [...this.byId.values()].filter((skill) => skill.name === name);
    return matches.length === 1 ? matches[0] : undefined;
  }
}
