import type { ReactElement } from 'react';
import { Alert } from './Alert';

export interface PanelStateOptions {
  /** What the panel lists, plural: "tools", "skills", "prompts", "resources". */
  what: string;
  serverName: string;
  ready: boolean;
  /** Said instead of the list when the server does not offer any (after readiness, before the list is asked). */
  offersNone?: string;
  error?: string | null;
  /** The list has come (false while it is being asked). */
  loaded?: boolean;
}

/**
 * What a server's panel (Tools, Skills, Prompts, Resources) shows before its list: "start the server",
 * "offers none", the listing's failure naming the server, or "Loading…"; null once the list is there.
 * One function, so the four panels say these the same way. Use: `if (state || !list) return state;`.
 */
export function panelState({ what, serverName, ready, offersNone, error, loaded = true }: PanelStateOptions): ReactElement | null {
  if (!ready) return <p className="muted">{`Start the server to see its ${what}.`}</p>;
  if (offersNone) return <p className="muted">{offersNone}</p>;
  if (error) return <Alert message={error} prefix={`Could not list the ${what} of ${serverName}:`} />;
  if (!loaded) return <p className="muted">{`Loading ${what}…`}</p>;
  return null;
}
