/** The application menu as data: main.ts passes the template to Menu.buildFromTemplate. */
import type { MenuItemConstructorOptions } from 'electron';

export interface MenuActions {
  about(): void;
  copyBaseUrl(): void;
}

export const APP_NAME = 'LabelDesk';

export function menuTemplate(platform: NodeJS.Platform, actions: MenuActions): MenuItemConstructorOptions[] {
  const mac = platform === 'darwin';
  const about: MenuItemConstructorOptions = { label: `About ${APP_NAME}`, click: () => actions.about() };
  const template: MenuItemConstructorOptions[] = [];
  if (mac) {
    template.push({
      label: APP_NAME,
      submenu: [
        about,
        { type: 'separator' },
        { role: 'hide' },
        { role: 'hideOthers' },
        { role: 'unhide' },
        { type: 'separator' },
        { role: 'quit', label: `Quit ${APP_NAME}` },
      ],
    });
  }
  template.push(
    {
      label: '&File',
      submenu: mac ? [{ role: 'close' }] : [{ role: 'quit', label: 'Quit', accelerator: 'CmdOrCtrl+Q' }],
    },
    {
      label: '&Edit',
      submenu: [
        { role: 'undo' },
        { role: 'redo' },
        { type: 'separator' },
        { role: 'cut' },
        { role: 'copy' },
        { role: 'paste' },
        { role: 'delete' },
        { type: 'separator' },
        { role: 'selectAll' },
      ],
    },
    {
      label: '&View',
      submenu: [
        { role: 'reload' },
        { role: 'forceReload' },
        { role: 'toggleDevTools' },
        { type: 'separator' },
        { role: 'resetZoom' },
        { role: 'zoomIn' },
        { role: 'zoomOut' },
        { type: 'separator' },
        { role: 'togglefullscreen' },
      ],
    },
    {
      label: '&Help',
      role: 'help',
      submenu: [about, { label: 'Copy local API base URL', click: () => actions.copyBaseUrl() }],
    },
  );
  return template;
}
