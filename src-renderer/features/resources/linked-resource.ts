import { createContext } from 'react';

/**
 * Opens another resource of the same server in the resource viewer (a relative link in a Markdown
 * resource). Given by the places that can show one: the Resources tab, and the linked resource's own
 * dialog (where following a further link shows that one instead).
 */
export const LinkedResourceOpener = createContext<((uri: string) => void) | null>(null);
