/**
 * The settings area for the composition root: the repository (with the settings another area stores,
 * see `LinkedSettings`), the contract's handler, the snapshot part, and the default model as the
 * model router reads it and as removing its provider resets it.
 */
import type Database from 'better-sqlite3';
import type { HostEventBus } from '../events';
import type { Clock } from '../clock';
import { createSettingsHandlers } from './settings-handlers';
import { SettingsRepository, type LinkedSettings } from './settings-repository';

export interface SettingsAreaDeps {
  db: Database.Database;
  linked?: LinkedSettings;
  events: HostEventBus;
  clock: Clock;
}

export function createSettingsArea({ db, linked, events, clock }: SettingsAreaDeps) {
  const repo = new SettingsRepository(db, linked);
  return {
    name: 'settings',
    repo,
    read: () => repo.read(),
    handlers: createSettingsHandlers(repo, events, clock),
    snapshot: () => ({ settings: repo.read() }),
    /** The default provider and model as Settings have them now. */
    defaultModel: () => {
      const { defaultProviderId, defaultModel } = repo.read();
      return { providerId: defaultProviderId, model: defaultModel };
    },
    /** Makes this the default model (the provider it was on is gone) and tells every window. */
    setDefaultModel: (choice: { providerId: string; model: string }) =>
      events.emit('settingsChanged', repo.write({ defaultProviderId: choice.providerId, defaultModel: choice.model }, clock.now())),
    /** A linked setting changed in its own area (the Anthropic base URL): every window gets the settings again. */
    announce: () => events.emit('settingsChanged', repo.read()),
  };
}
