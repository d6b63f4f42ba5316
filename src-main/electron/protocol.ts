import { app } from 'electron';
import { PROTOCOL_SCHEME } from '@contract';

/**
 * Makes Patchbay the handler of `patchbay://` links. The installers declare it too (the .desktop
 * entry's MimeType on Linux, CFBundleURLTypes on macOS, the registry on Windows); this call repairs
 * it after a move on macOS and Windows. Linux is left to the desktop entry, and a development run is
 * never registered (it would hand the user's links to a bare Electron binary).
 */
export function registerProtocolClient(log: (text: string) => void): void {
  if (!app.isPackaged || process.platform === 'linux') return;
  if (app.isDefaultProtocolClient(PROTOCOL_SCHEME)) return;
  const registered = app.setAsDefaultProtocolClient(PROTOCOL_SCHEME);
  log(
    registered
      ? `Registered as the handler of ${PROTOCOL_SCHEME}:// links`
      : `Could not register as the handler of ${PROTOCOL_SCHEME}:// links`,
  );
}
