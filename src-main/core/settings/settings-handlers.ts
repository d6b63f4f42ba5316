import type { HandlersFor, settingsMethods } from '@contract';
import type { HostEventBus } from '../events';
import type { Clock } from '../clock';
import type { SettingsRepository } from './settings-repository';

/** The contract's settings methods. */
export function createSettingsHandlers(
  settings: SettingsRepository,
  events: HostEventBus,
  clock: Clock,
): HandlersFor<typeof settingsMethods> {
  return {
    updateSettings: async (patch) => {
      // Resolves only after the transaction committed, so "Saved" in the UI means saved.
      const committed = settings.write(patch, clock.now());
      events.emit('settingsChanged', committed);
      return committed;
    },
  };
}
