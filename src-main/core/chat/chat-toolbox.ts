/**
 * What the agent loop needs from the tools side: the tools offered to the model, the instructions of
 * their servers, and the one way a model-initiated call runs — the tool router's `callToolWithConsent`
 * (standing decisions, the consent dialog, the write-ahead audit trail). The host wires those three
 * (see host.ts: the tool offers' `forModel`, the instructions source, the router); the chat speaks
 * the router's own vocabulary (`tool`, `args`, `status`), so nothing translates in between; the router
 * reports the calls' progress to the renderer itself, with the chat reference.
 */
import type { ToolResultBlock } from '@contract';
import type { ReviewContext } from '../guard/scanner/content-review';
import type { FleetTool } from '../server-fleet/fleet-tools';
import type { ServerInstructions } from '../server-instructions/server-instructions';
import type { AdvertisedSkill, SkillLoad } from '../skills/skill-catalog';
import type { ToolCallDone, ToolCallRequest } from '../tools/tool-call';

/** What the chat keeps of how a call ended: the router's `ToolCallDone`, picked. */
export type CallAnswer = Pick<ToolCallDone, 'status' | 'result' | 'editedArgs' | 'definition'>;

export interface ChatToolbox {
  /**
   * The tools offered to the model: of Ready servers (only these server ids when given), those the user
   * offers, within the tool set when one is given; pinned ones marked. With the server's identity.
   */
  list(serverIds?: readonly string[], toolSetId?: string): FleetTool[];
  /** The instructions of these servers that the user lets go to the model (Ready servers that gave some, in this order). */
  instructions?(serverIds: readonly string[]): ServerInstructions[];
  /** Runs a model-initiated call through consent; never rejects for tool errors or denials. */
  call(request: ToolCallRequest): Promise<CallAnswer>;
  /**
   * A server's result before the model sees it: scanned, and when flagged, what the user's Flagged
   * content setting decides (may wait on a question). Absent: results go as they are (marked as data).
   */
  review?(block: ToolResultBlock, context: ReviewContext): Promise<ToolResultBlock>;
  /** Skills (see skills/): those offered to the model now, and loading one (a refusal rejects, in words). */
  skills?: {
    forModel(): AdvertisedSkill[];
    load(skill: AdvertisedSkill, file: string | undefined, signal?: AbortSignal): Promise<SkillLoad>;
  };
}
