import type { StoreSlice } from './slice';

/**
 * Skills are not in the snapshot (a listing can be long): the lists ask `listSkills`, and ask again
 * when this counter moves (every `skillsChanged` event: a server listed, the folder changed, a switch).
 */
export interface SkillsState {
  skillsRevision: number;
}

export const skillsSlice: StoreSlice<SkillsState> = {
  initial: { skillsRevision: 0 },
  apply: (state, event) => (event.name === 'skillsChanged' ? { skillsRevision: state.skillsRevision + 1 } : undefined),
};
