import type { MenuItemConstructorOptions } from 'electron';
import { describe, expect, test, vi } from 'vitest';
import { menuTemplate } from '../../main/menu';

function submenu(item: MenuItemConstructorOptions): MenuItemConstructorOptions[] {
  return item.submenu as MenuItemConstructorOptions[];
}
function top(template: MenuItemConstructorOptions[], label: string): MenuItemConstructorOptions {
  const found = template.find((m) => m.label?.replace('&', '') === label);
  if (!found) throw new Error(`no ${label} menu`);
  return found;
}

describe('application menu', () => {
  test('File, Edit, View, Help on Windows and Linux', () => {
    for (const platform of ['win32', 'linux'] as const) {
      const template = menuTemplate(platform, { about: () => {}, copyBaseUrl: () => {} });
      expect(template.map((m) => m.label)).toEqual(['&File', '&Edit', '&View', '&Help']);
      expect(submenu(top(template, 'File')).map((i) => i.role)).toEqual(['quit']);
      const editRoles = submenu(top(template, 'Edit')).map((i) => i.role).filter(Boolean);
      expect(editRoles).toEqual(expect.arrayContaining(['undo', 'redo', 'cut', 'copy', 'paste', 'selectAll']));
      const viewRoles = submenu(top(template, 'View')).map((i) => i.role).filter(Boolean);
      expect(viewRoles).toEqual(expect.arrayContaining(['reload', 'toggleDevTools', 'resetZoom', 'zoomIn', 'zoomOut']));
    }
  });

  test('Help: About LabelDesk and Copy local API base URL call their actions', () => {
    const actions = { about: vi.fn(), copyBaseUrl: vi.fn() };
    const help = submenu(top(menuTemplate('linux', actions), 'Help'));
    expect(help.map((i) => i.label)).toEqual(['About LabelDesk', 'Copy local API base URL']);
    const click = (item: MenuItemConstructorOptions) => (item.click as () => void)();
    click(help[0]);
    expect(actions.about).toHaveBeenCalledOnce();
    click(help[1]);
    expect(actions.copyBaseUrl).toHaveBeenCalledOnce();
  });

  test('macOS gets the app menu with About and Quit first', () => {
    const template = menuTemplate('darwin', { about: () => {}, copyBaseUrl: () => {} });
    expect(template[0].label).toBe('LabelDesk');
    const appMenu = submenu(template[0]);
    expect(appMenu[0].label).toBe('About LabelDesk');
    expect(appMenu.some((i) => i.role === 'quit')).toBe(true);
  });
});
