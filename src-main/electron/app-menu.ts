import { app, Menu, shell, type MenuItemConstructorOptions } from 'electron';
import type { AppPage } from '@contract';
import type { Host } from '../core/host';

const isMac = process.platform === 'darwin';

/**
 * The native application menu: the platform's usual roles and shortcuts (edit, zoom, full screen,
 * window), the pages on Ctrl/Cmd+1…5 and Settings on Ctrl/Cmd+comma, and Help with the app log, the
 * data folder and a manual update check. Quit uses the `quit` role, which goes through the same
 * orderly shutdown as closing the window or quitting from the dock.
 */
export function installAppMenu(host: Host): void {
  const navigate = (page: AppPage) => host.events.emit('menuCommand', { command: 'navigate', page });
  const page = (label: string, target: AppPage, key: string): MenuItemConstructorOptions => ({
    label,
    accelerator: `CmdOrCtrl+${key}`,
    click: () => navigate(target),
  });
  const settings: MenuItemConstructorOptions = {
    label: isMac ? 'Settings…' : 'Settings',
    accelerator: 'CmdOrCtrl+,',
    click: () => navigate('settings'),
  };

  const template: MenuItemConstructorOptions[] = [
    ...(isMac
      ? [
          {
            label: app.name,
            submenu: [
              { role: 'about' },
              { type: 'separator' },
              settings,
              { type: 'separator' },
              { role: 'services' },
              { type: 'separator' },
              { role: 'hide' },
              { role: 'hideOthers' },
              { role: 'unhide' },
              { type: 'separator' },
              { role: 'quit' },
            ],
          } satisfies MenuItemConstructorOptions,
        ]
      : []),
    {
      label: 'File',
      submenu: isMac ? [{ role: 'close' }] : [settings, { type: 'separator' }, { role: 'close' }, { role: 'quit' }],
    },
    { role: 'editMenu' },
    {
      label: 'View',
      submenu: [
        page('Chat', 'chat', '1'),
        page('Servers', 'servers', '2'),
        page('Roots', 'roots', '3'),
        page('Logs', 'logs', '4'),
        { type: 'separator' },
        { role: 'reload' },
        ...(app.isPackaged ? [] : [{ role: 'toggleDevTools' } satisfies MenuItemConstructorOptions]),
        { type: 'separator' },
        { role: 'resetZoom' },
        { role: 'zoomIn' },
        { role: 'zoomOut' },
        { type: 'separator' },
        { role: 'togglefullscreen' },
      ],
    },
    { role: 'windowMenu' },
    {
      role: 'help',
      submenu: [
        { label: 'Show logs', click: () => shell.showItemInFolder(host.info.logFile) },
        { label: 'Open data folder', click: () => void shell.openPath(host.info.dataDir) },
        {
          label: 'Check for updates…',
          click: () => {
            navigate('settings');
            void host.handlers.checkForUpdates(undefined);
          },
        },
        { type: 'separator' },
        { label: 'About the Model Context Protocol', click: () => void shell.openExternal('https://modelcontextprotocol.io') },
        ...(isMac ? [] : [{ role: 'about' } satisfies MenuItemConstructorOptions]),
      ],
    },
  ];
  Menu.setApplicationMenu(Menu.buildFromTemplate(template));
}
