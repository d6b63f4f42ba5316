/**
 * The sandbox area, made by the composition root like every other: each local server's process sandbox
 * (`ServerSandboxes`), made before the fleet, which puts every sandboxed launch in it, on what this
 * machine offers (`sandboxSupport`).
 */
import { sandboxSupport } from './sandbox-support';
import { ServerSandboxes, type ServerSandboxesOptions } from './server-sandboxes';

export function createSandboxArea(deps: Omit<ServerSandboxesOptions, 'support'>): ServerSandboxes {
  return new ServerSandboxes({ ...deps, support: sandboxSupport });
}
