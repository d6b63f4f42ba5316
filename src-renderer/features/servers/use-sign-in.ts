import { useState } from 'react';
import { isHttpUrl, type SignInStart } from '@contract';
import { useTrackedCalls } from '../../ui/use-tracked-calls';

/** What the sign-in button needs: the click handler, and what to show while and after it runs. */
export interface SignIn {
  /** Call straight from the click handler: the tab has to be opened before anything is awaited. */
  start(): void;
  pending: boolean;
  /** Why the host could not start the sign-in. */
  failure: string | null;
  dismiss(): void;
  /** The authorization URL when no tab could be opened for it: the user follows it by hand. */
  link: string | null;
}

/**
 * Starts an OAuth sign-in and gets the user to the authorization page.
 *
 * Web mode: browsers allow `window.open` only during the click itself (an await ends the user
 * gesture, and the popup blocker steps in), and the URL exists only once `signIn` answers. So a
 * blank tab is opened first and pointed at the URL afterwards; if none could be opened, or the user
 * closed it meanwhile, the URL is offered as a link. Electron: the main process refuses
 * `window.open` (no tab, no flash) and has opened the system browser itself (`openedByHost`).
 *
 * `browser: false` (a server that signs in as an application or through your organisation): no
 * tab at all; the host gets the tokens itself.
 */
export function useSignIn(signIn: () => Promise<SignInStart>, { browser = true }: { browser?: boolean } = {}): SignIn {
  const calls = useTrackedCalls<'sign-in'>();
  const [link, setLink] = useState<string | null>(null);

  const start = () => {
    setLink(null);
    const tab = browser ? window.open('', '_blank') : null;
    // The authorization page must not reach back into Patchbay through window.opener.
    if (tab) tab.opener = null;
    void calls.run('sign-in', async () => {
      try {
        const started = await signIn();
        if (started.openedByHost || started.authorizationUrl === undefined) {
          tab?.close();
          return;
        }
        // http(s) only: a `javascript:` URL put into the blank tab (still on Patchbay's origin) would run as Patchbay.
        if (!isHttpUrl(started.authorizationUrl)) throw new Error('the server gave a sign-in address that is not a web page');
        if (tab && !tab.closed) tab.location.href = started.authorizationUrl;
        else setLink(started.authorizationUrl);
      } catch (error) {
        tab?.close();
        throw error;
      }
    });
  };

  return { start, pending: calls.isPending('sign-in'), failure: calls.failure?.message ?? null, dismiss: calls.dismiss, link };
}
