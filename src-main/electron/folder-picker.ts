import { BrowserWindow, dialog, type OpenDialogOptions } from 'electron';

/**
 * The native folder picker behind the core's `pickFolder` port: a directory-only open dialog, modal
 * to the Patchbay window when there is one. Resolves undefined when the user cancels.
 */
export function createFolderPicker(): () => Promise<string | undefined> {
  return async () => {
    const window = BrowserWindow.getFocusedWindow() ?? BrowserWindow.getAllWindows()[0];
    const options: OpenDialogOptions = {
      title: 'Add folder',
      buttonLabel: 'Add folder',
      properties: ['openDirectory', 'createDirectory'],
    };
    const result = window ? await dialog.showOpenDialog(window, options) : await dialog.showOpenDialog(options);
    return result.canceled ? undefined : result.filePaths[0];
  };
}
