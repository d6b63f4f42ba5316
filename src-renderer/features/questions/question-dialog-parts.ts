import { lazyPart } from '../../ui/lazy-part';

/**
 * The question dialogs, each in its own chunk: none is open at the first paint. The shell fetches them
 * in the background right after it (App.tsx), so a question that arrives later opens its dialog at once.
 */
export const rootsConsentPart = lazyPart(async () => (await import('../roots/RootsConsentHost')).RootsConsentHost);
export const toolConsentPart = lazyPart(async () => (await import('../consent/ToolConsentHost')).ToolConsentHost);
export const samplingDialogPart = lazyPart(async () => (await import('../sampling/SamplingDialog')).SamplingDialog);
export const elicitationDialogPart = lazyPart(async () => (await import('../elicitation/ElicitationDialog')).ElicitationDialog);

export const flaggedContentPart = lazyPart(async () => (await import('../guard/FlaggedContentDialog')).FlaggedContentDialog);

export const questionDialogParts = [rootsConsentPart, toolConsentPart, samplingDialogPart, elicitationDialogPart, flaggedContentPart];
