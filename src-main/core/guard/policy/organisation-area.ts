/**
 * The organisation's policy as an area of its own, made before the fleet: the fleet asks it before a
 * server is added or started, and the guard (made after the fleet) listens for changes to the rules it
 * holds. It watches its file from start to dispose.
 */
import { refusalToAdd, refusalToStart, type AdmittedServer } from './admission';
import { managedSettingsFile } from './managed-settings';
import { OrganisationPolicy } from './organisation-policy';

export function createOrganisationArea(options: { file?: string } = {}) {
  const listeners = new Set<() => void>();
  const policy = new OrganisationPolicy(options.file ?? managedSettingsFile(), () => listeners.forEach((listener) => listener()));
  return {
    name: 'organisation' as const,
    policy,
    /** Calls `listener` after each read of the file (the policy may have changed, or become unreadable). */
    whenChanged(listener: () => void): void {
      listeners.add(listener);
    },
    /** Why the organisation refuses this server being added (undefined: it does not). */
    refusalToAdd: (server: AdmittedServer) => refusalToAdd(policy.current, server),
    /** Why the organisation refuses this server starting (undefined: it does not). */
    refusalToStart: (server: AdmittedServer) => refusalToStart(policy.current, server),
    start: () => policy.watch(),
    dispose: () => policy.dispose(),
  };
}

export type OrganisationArea = ReturnType<typeof createOrganisationArea>;
