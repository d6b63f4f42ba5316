/**
 * The app views the renderer has open, by the id handed out with each one. Every request an app
 * makes names its view, and the view names the server: an app can only ever reach the server that
 * owns it, whatever it asks for.
 */
import crypto from 'node:crypto';
import { HostCallError } from '@contract';

/** One open app view. */
export interface AppView {
  viewId: string;
  serverId: string;
  serverName: string;
  tool: string;
  resourceUri: string;
  /** The conversation it sits in (its model-context updates go there). */
  conversationId?: string;
}

/** Views kept at most (the oldest go first: a renderer that never closes them cannot grow this). */
const MAX_VIEWS = 500;

export class AppViews {
  private readonly views = new Map<string, AppView>();

  open(view: Omit<AppView, 'viewId'>): AppView {
    const opened = { ...view, viewId: crypto.randomUUID() };
    this.views.set(opened.viewId, opened);
    if (this.views.size > MAX_VIEWS) this.views.delete(this.views.keys().next().value as string);
    return opened;
  }

  /** The view, or an error the app is told (its frame outlived it). */
  get(viewId: string): AppView {
    const view = this.views.get(viewId);
    if (!view) throw new HostCallError('invalid_input', 'This app view is closed.');
    return view;
  }

  close(viewId: string): void {
    this.views.delete(viewId);
  }

  /** The server was removed: its apps can ask for nothing more. */
  closeServer(serverId: string): void {
    for (const [id, view] of this.views) if (view.serverId === serverId) this.views.delete(id);
  }
}
