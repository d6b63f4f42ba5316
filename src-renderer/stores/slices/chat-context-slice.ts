import type { AttachmentView, PromptResultView } from '@contract';
import type { StoreSlice } from './slice';

/** What goes with the message being written besides its text: attached resources and a chosen prompt. */
export interface DraftContext {
  attachments: AttachmentView[];
  prompt?: PromptResultView;
}

/** Per conversation (the same keys as `chatDrafts`): the renderer's own state, not the host's. */
export interface ChatContextState {
  chatContextDrafts: Record<string, DraftContext>;
}

export const chatContextSlice: StoreSlice<ChatContextState> = {
  initial: { chatContextDrafts: {} },
  apply: (state, event) => {
    if (event.name !== 'conversationRemoved' || !(event.payload.id in state.chatContextDrafts)) return undefined;
    const { [event.payload.id]: _gone, ...rest } = state.chatContextDrafts;
    return { chatContextDrafts: rest };
  },
};
