import { lazyPart } from '../../../ui/lazy-part';

/** The chat's Attach and prompt dialogs, in their own chunks: each opens on the user's action. */
export const attachDialogPart = lazyPart(async () => (await import('./AttachDialog')).AttachDialog);
export const promptDialogPart = lazyPart(async () => (await import('./PromptDialog')).PromptDialog);

export const contextDialogParts = [attachDialogPart, promptDialogPart];
