import { createContext, type MouseEvent } from 'react';

/**
 * Decides what a click on a link in rendered Markdown does (it may `preventDefault` and open the
 * target itself). Without one, links open outside the app, as the model's links in the chat do.
 */
export type MarkdownLinkHandler = (href: string, event: MouseEvent<HTMLAnchorElement>) => void;

/** Given by whoever shows Markdown whose links mean something there (a server's Markdown resource). */
export const MarkdownLinkContext = createContext<MarkdownLinkHandler | null>(null);
