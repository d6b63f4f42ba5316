import { lazyPart } from '../../ui/lazy-part';

/** The install dialog, in its own chunk: it opens on a link, a bundle or Find servers, never at the first paint. */
export const installDialogPart = lazyPart(async () => (await import('./InstallDialog')).InstallDialog);
