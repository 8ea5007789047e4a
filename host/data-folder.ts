/**
 * The per-user data folder, where the default database lives (docs/operations.md#the-data-folder):
 * `LABELDESK_DATA_DIR` when set, else the platform's place for application data.
 *
 * - Linux and other Unix: `$XDG_DATA_HOME/labeldesk` (only an absolute XDG_DATA_HOME counts,
 *   as the XDG spec says), else `~/.local/share/labeldesk`
 * - macOS: `~/Library/Application Support/LabelDesk`
 * - Windows: `%APPDATA%\LabelDesk`, else `~\AppData\Roaming\LabelDesk`
 */
import { mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';

export const DATABASE_FILE_NAME = 'labeldesk.db';

export interface DataFolderContext {
  env?: Record<string, string | undefined>;
  platform?: NodeJS.Platform;
  home?: string;
}

/** Where the data folder is; does not create it. */
export function dataFolder(context: DataFolderContext = {}): string {
  const env = context.env ?? process.env;
  const platform = context.platform ?? process.platform;
  const home = context.home ?? homedir();
  const p = platform === 'win32' ? path.win32 : path.posix;

  const override = env.LABELDESK_DATA_DIR;
  if (override !== undefined && override !== '') return p.resolve(override);

  if (platform === 'win32') {
    const appData = env.APPDATA;
    return appData ? p.join(appData, 'LabelDesk') : p.join(home, 'AppData', 'Roaming', 'LabelDesk');
  }
  if (platform === 'darwin') return p.join(home, 'Library', 'Application Support', 'LabelDesk');
  const xdg = env.XDG_DATA_HOME;
  if (xdg && p.isAbsolute(xdg)) return p.join(xdg, 'labeldesk');
  return p.join(home, '.local', 'share', 'labeldesk');
}

/** The data folder, created (with its parents) when missing. */
export function ensureDataFolder(context: DataFolderContext = {}): string {
  const folder = dataFolder(context);
  mkdirSync(folder, { recursive: true });
  return folder;
}

/** The default database file, inside the (created) data folder. */
export function defaultDatabaseFile(context: DataFolderContext = {}): string {
  const folder = ensureDataFolder(context);
  const p = (context.platform ?? process.platform) === 'win32' ? path.win32 : path.posix;
  return p.join(folder, DATABASE_FILE_NAME);
}
