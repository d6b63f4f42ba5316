import { lazyPart } from '../../ui/lazy-part';

/** The Timeline dialog, in its own chunk: opened from a chat message. */
export const timelineDialogPart = lazyPart(async () => (await import('./TimelineDialog')).TimelineDialog);
