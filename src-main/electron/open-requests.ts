import { app } from 'electron';
import fs from 'node:fs';
import type { OpenRequestSource } from '@contract';
import type { Host } from '../core/host';
import { parseOpenTarget } from '../desktop/open-request';

const isFile = (file: string) => {
  try {
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
};

/**
 * Where open requests enter: the first launch's command line, a second launch, and macOS's
 * open-file/open-url events (which can fire before the app is ready, so they are held until the
 * host exists). Each target becomes a checked request handed to the host, which shows it; nothing
 * is opened, installed or started here.
 */
export class OpenRequestRouter {
  private host: Host | undefined;
  private readonly early: { target: string; source: OpenRequestSource }[] = [];

  /** Listens to macOS's open events; call before the app is ready (they may come first). */
  listen(onDelivered: () => void): void {
    app.on('open-file', (event, file) => {
      event.preventDefault();
      this.deliver([file], 'open-file');
      onDelivered();
    });
    app.on('open-url', (event, url) => {
      event.preventDefault();
      this.deliver([url], 'open-url');
      onDelivered();
    });
  }

  /** From now on requests go to this host; those that came earlier go first. */
  attach(host: Host): void {
    this.host = host;
    for (const { target, source } of this.early.splice(0)) this.hand(target, source);
  }

  deliver(targets: readonly string[], source: OpenRequestSource): void {
    for (const target of targets) {
      if (this.host) this.hand(target, source);
      else if (this.early.length < 20) this.early.push({ target, source });
    }
  }

  private hand(target: string, source: OpenRequestSource): void {
    this.host?.app.receiveOpenRequest(parseOpenTarget(target, { source, now: new Date(), isFile }));
  }
}
